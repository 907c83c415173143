/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The JSON trace format, read and written as a stream.
 *
 * Why not JsonParser: json-glib 1.6 builds the whole document as a tree of
 * JsonNode/JsonObject (a hash table per event object, roughly 1 KB per
 * event), so a trace of a few million events would need gigabytes before the
 * first event reaches the model, and its nodes carry no line numbers, so an
 * error in event 90 000 could not say where it is.  The reader below is a
 * small pull lexer over a GInputStream: it keeps one token at a time, knows
 * the line of every token, and stores events straight into the WsTrace being
 * built.  References (thread ids, stack ids, event indices) may point
 * forwards, so they are kept raw while reading and resolved once the whole
 * document has been seen.  The tests check the writer's output against
 * json-glib's own parser, an independent implementation.
 */
#include "config.h"

#include <glib/gi18n-lib.h>
#include <string.h>

#include "ws-importer.h"
#include "ws-importer-open.h"
#include "ws-json-private.h"
#include "ws-trace-summary.h"

/* "function (module)" as perf prints a frame, or a bare function name. */
static WsFrameId
intern_frame_string (WsStackTable *stacks,
                     const char   *text)
{
  gsize len = strlen (text);
  const char *open;

  if (len > 0 && text[len - 1] == ')' && (open = g_strrstr (text, " (")) != NULL && open != text)
    return ws_stack_table_intern_frame_len (stacks, text, open - text,
                                            open + 2, text + len - 1 - (open + 2));
  return ws_stack_table_intern_frame (stacks, text, "[unknown]");
}

static gboolean
parse_frame_object (Reader     *r,
                    const char *what,
                    guint       index,
                    guint       line,
                    WsFrameId  *out)
{
  g_autofree char *function = NULL;
  g_autofree char *module = NULL;
  gboolean first = TRUE, more;

  while (ws_json_iter_object (r, &first, &more) && more)
    {
      if (strcmp (r->str->str, "function") == 0)
        {
          if (!ws_json_read_string (r, "function"))
            return FALSE;
          g_free (function);
          function = g_strdup (r->str->str);
        }
      else if (strcmp (r->str->str, "module") == 0)
        {
          if (!ws_json_read_string (r, "module"))
            return FALSE;
          g_free (module);
          module = g_strdup (r->str->str);
        }
      else
        {
          Token tok;
          if (!ws_json_next_token (r, FALSE, &tok) || !ws_json_skip_value (r, &tok, 1))
            return FALSE;
        }
    }
  if (r->error)
    return FALSE;

  if (function == NULL)
    return ws_json_reader_fail (r, WS_ERROR_MISSING_FIELD, line,
                        _("%s %u: missing member “%s”"), what, index, "function");

  *out = ws_stack_table_intern_frame (r->stacks, function, module ? module : "[unknown]");
  return TRUE;
}

static gboolean
parse_frames (Reader *r)
{
  gboolean first = TRUE;
  Token tok;

  if (!ws_json_begin_array (r, "frames"))
    return FALSE;

  for (guint index = 0;; index++)
    {
      WsFrameId id;

      if (!ws_json_next_element (r, &first, FALSE, &tok))
        return FALSE;
      if (tok.type == TOK_RBRACKET)
        return TRUE;
      if (!ws_json_expect_object (r, &tok, _("frame"), index)
          || !parse_frame_object (r, _("frame"), index, tok.line, &id))
        return FALSE;
      g_array_append_val (r->frame_map, id);
    }
}

static gboolean
parse_stacks (Reader *r)
{
  gboolean first = TRUE;
  Token tok;

  if (!ws_json_begin_array (r, "stacks"))
    return FALSE;

  for (guint index = 0;; index++)
    {
      guint32 span[2] = { r->stack_frames->len, 0 };
      gboolean first_frame = TRUE;
      guint line;

      if (!ws_json_next_element (r, &first, FALSE, &tok))
        return FALSE;
      if (tok.type == TOK_RBRACKET)
        return TRUE;
      if (tok.type != TOK_LBRACKET)
        return ws_json_reader_fail (r, WS_ERROR_PARSE, tok.line,
                            _("stack %u: expected an array of frame ids, found %s"),
                            index, ws_json_token_description (tok.type));
      line = tok.line;

      for (;;)
        {
          gint64 frame;
          guint32 f;

          if (!ws_json_next_element (r, &first_frame, FALSE, &tok))
            return FALSE;
          if (tok.type == TOK_RBRACKET)
            break;
          if (!ws_json_to_int64 (r, &tok, _("frame id"), 0, G_MAXUINT32 - 1, &frame))
            return FALSE;
          f = frame;
          g_array_append_val (r->stack_frames, f);
        }

      span[1] = r->stack_frames->len - span[0];
      if (index == 0 && span[1] != 0)
        return ws_json_reader_fail (r, WS_ERROR_PARSE, line, "%s",
                            _("stack 0 must be the empty stack []"));
      g_array_append_vals (r->stack_offsets, span, 2);
      g_array_append_val (r->stack_lines, line);
    }
}

/* The members of a process or thread object that the reader keeps: its
 * ids and its name (a process's "tid" is skipped like any other member). */
typedef struct {
  gboolean has_tid, has_pid;
  gint64   tid, pid, life;
  char    *name;
} Identity;

static gboolean
read_identity (Reader   *r,
               gboolean  with_tid,
               Identity *id)
{
  gboolean first_member = TRUE, more;
  Token tok;

  while (ws_json_iter_object (r, &first_member, &more) && more)
    {
      if (with_tid && strcmp (r->str->str, "tid") == 0)
        {
          if (!ws_json_read_int (r, "tid", G_MININT32, G_MAXINT32, &id->tid))
            return FALSE;
          id->has_tid = TRUE;
        }
      else if (with_tid && strcmp (r->str->str, "life") == 0)
        {
          if (!ws_json_read_int (r, "life", 0, G_MAXUINT16, &id->life))
            return FALSE;
        }
      else if (strcmp (r->str->str, "pid") == 0)
        {
          if (!ws_json_read_int (r, "pid", G_MININT32, G_MAXINT32, &id->pid))
            return FALSE;
          id->has_pid = TRUE;
        }
      else if (strcmp (r->str->str, "name") == 0)
        {
          if (!ws_json_read_string (r, "name"))
            return FALSE;
          g_free (id->name);
          id->name = g_strdup (r->str->str);
        }
      else if (!ws_json_next_token (r, FALSE, &tok) || !ws_json_skip_value (r, &tok, 1))
        return FALSE;
    }
  return !r->error;
}

/* Starts element @index of a "processes" or "threads" array (@what): its
 * identity members, and the line it starts on.  Sets *@end at the end of
 * the array. */
static gboolean
next_identity (Reader     *r,
               gboolean   *first,
               const char *what,
               guint       index,
               gboolean    with_tid,
               Identity   *id,
               guint      *line,
               gboolean   *end)
{
  Token tok;

  *end = FALSE;
  if (!ws_json_next_element (r, first, FALSE, &tok))
    return FALSE;
  if (tok.type == TOK_RBRACKET)
    {
      *end = TRUE;
      return TRUE;
    }
  if (!ws_json_expect_object (r, &tok, what, index))
    return FALSE;
  *line = tok.line;
  return read_identity (r, with_tid, id);
}

static gboolean
parse_processes (Reader *r)
{
  gboolean first = TRUE;

  if (!ws_json_begin_array (r, "processes"))
    return FALSE;

  for (guint index = 0;; index++)
    {
      Identity id = { 0 };
      g_autofree char *name = NULL;
      gboolean end, ok;
      guint line = 0;

      ok = next_identity (r, &first, _("process"), index, FALSE, &id, &line, &end);
      name = id.name;
      if (!ok || end)
        return ok;
      if (!id.has_pid)
        return ws_json_reader_fail (r, WS_ERROR_MISSING_FIELD, line,
                            _("%s %u: missing member “%s”"), _("process"), index, "pid");
      ws_trace_set_process_name (r->trace, id.pid, name);
    }
}

/* A tid reused by a later thread: "life" k names the k-th thread after
 * the first that had it (docs/trace-format.md). */
static gint64
life_key (gint64 tid,
          gint64 life)
{
  return (gint64) (((guint64) (guint32) (gint32) tid << 32) | (guint64) life);
}

static guint
find_life (Reader *r,
           gint64  tid,
           gint64  life)
{
  gint64 key = life_key (tid, life);
  gpointer found;

  if (life == 0)
    return ws_trace_find_thread (r->trace, (gint32) tid);
  if (r->lives == NULL || (found = g_hash_table_lookup (r->lives, &key)) == NULL)
    return WS_NONE;
  return GPOINTER_TO_UINT (found) - 1;
}

static gboolean
parse_threads (Reader *r)
{
  gboolean first = TRUE;

  if (!ws_json_begin_array (r, "threads"))
    return FALSE;

  for (guint index = 0;; index++)
    {
      Identity id = { 0 };
      g_autofree char *name = NULL;
      gboolean end, ok;
      guint line = 0, thread, first_life;

      ok = next_identity (r, &first, _("thread"), index, TRUE, &id, &line, &end);
      name = id.name;
      if (!ok || end)
        return ok;
      if (!id.has_tid)
        return ws_json_reader_fail (r, WS_ERROR_MISSING_FIELD, line,
                            _("%s %u: missing member “%s”"), _("thread"), index, "tid");
      first_life = ws_trace_find_thread (r->trace, id.tid);
      if (id.life == 0 && first_life != WS_NONE)
        return ws_json_reader_fail (r, WS_ERROR_PARSE, line,
                            _("thread %u: tid %d is listed twice"), index, (int) id.tid);
      if (id.life > 0 && first_life == WS_NONE)
        return ws_json_reader_fail (r, WS_ERROR_PARSE, line,
                            _("thread %u: life %d of tid %d comes before its life 0"),
                            index, (int) id.life, (int) id.tid);
      if (id.life > 0 && find_life (r, id.tid, id.life) != WS_NONE)
        return ws_json_reader_fail (r, WS_ERROR_PARSE, line,
                            _("thread %u: life %d of tid %d is listed twice"),
                            index, (int) id.life, (int) id.tid);

      /* A later life is a thread of its own; the bare tid keeps naming
       * life 0 until every reference is resolved. */
      if (id.life > 0)
        ws_trace_forget_tid (r->trace, id.tid);
      /* A hand-written single-threaded process need not repeat its pid. */
      thread = ws_trace_ensure_thread (r->trace, id.tid, id.has_pid ? id.pid : id.tid);
      ws_trace_set_thread_name (r->trace, thread, name);
      if (id.life > 0)
        {
          gint64 *key = g_new (gint64, 1);

          *key = life_key (id.tid, id.life);
          if (r->lives == NULL)
            r->lives = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, NULL);
          g_hash_table_insert (r->lives, key, GUINT_TO_POINTER (thread + 1));
          ws_trace_bind_tid (r->trace, id.tid, first_life);
        }
    }
}

static gboolean
parse_flags (Reader *r,
             guint   index,
             guint  *flags)
{
  gboolean first = TRUE;
  Token tok;

  if (!ws_json_begin_array (r, "flags"))
    return FALSE;

  for (;;)
    {
      guint bit;

      if (!ws_json_next_element (r, &first, TRUE, &tok))
        return FALSE;
      if (tok.type == TOK_RBRACKET)
        return TRUE;
      if (tok.type != TOK_STRING)
        return ws_json_reader_fail (r, WS_ERROR_PARSE, tok.line,
                            _("event %u: a flag must be a string, found %s"),
                            index, ws_json_token_description (tok.type));

      for (bit = 0; bit < WS_EVENT_N_FLAG_BITS; bit++)
        if (strcmp (r->str->str, ws_event_flag_name (bit)) == 0)
          break;
      if (bit == WS_EVENT_N_FLAG_BITS)
        return ws_json_reader_fail (r, WS_ERROR_PARSE, tok.line,
                            _("event %u: unknown flag “%s”"), index, r->str->str);
      *flags |= 1u << bit;
    }
}

/* An inline stack: caller first, "function (module)" strings or objects. */
static gboolean
parse_inline_stack (Reader   *r,
                    guint     index,
                    guint32  *stack)
{
  g_autoptr(GArray) frames = g_array_new (FALSE, FALSE, sizeof (WsFrameId));
  gboolean first = TRUE;
  Token tok;

  for (;;)
    {
      WsFrameId id;

      if (!ws_json_next_element (r, &first, TRUE, &tok))
        return FALSE;
      if (tok.type == TOK_RBRACKET)
        break;
      if (tok.type == TOK_STRING)
        id = intern_frame_string (r->stacks, r->str->str);
      else if (tok.type == TOK_LBRACE)
        {
          if (!parse_frame_object (r, _("event"), index, tok.line, &id))
            return FALSE;
        }
      else
        return ws_json_reader_fail (r, WS_ERROR_PARSE, tok.line,
                            _("event %u: a stack frame must be a string or an object, found %s"),
                            index, ws_json_token_description (tok.type));
      g_array_append_val (frames, id);
    }

  *stack = ws_stack_table_intern_stack (r->stacks, (const WsFrameId *) (gpointer) frames->data,
                                        frames->len);
  return TRUE;
}

static gboolean
parse_event (Reader *r,
             guint   index,
             guint   line)
{
  /* Members first, the event after: which word holds what depends on the
   * kind (WsEvent), and the kind may come last. */
  WsEvent ev;
  WsEventKind kind = WS_EVENT_RUNNING;
  WsTime time = 0, duration = 0;
  guint32 thread = 0, cpu = 0, stack = WS_STACK_EMPTY, state = 0, flags = 0;
  guint32 peer = WS_NONE, target = WS_NONE, name = WS_NONE, latency = WS_LATENCY_UNKNOWN;
  guint8 bits = RAW_STACK_IS_FILE_ID | RAW_PEER_ABSENT;
  gboolean first = TRUE, more, has_kind = FALSE, has_time = FALSE, has_tid = FALSE;
  gboolean has_name = FALSE, has_latency = FALSE;
  guint latency_line = 0, peer_line = 0;
  guint target_line = 0, lives = 0;
  gint64 v;
  Token tok;

  while (ws_json_iter_object (r, &first, &more) && more)
    {
      const char *key = r->str->str;

      if (strcmp (key, "kind") == 0)
        {
          if (!ws_json_read_string (r, "kind"))
            return FALSE;
          if (!ws_event_kind_from_string (r->str->str, &kind))
            return ws_json_reader_fail (r, WS_ERROR_PARSE, r->line,
                                _("event %u: unknown kind “%s”"), index, r->str->str);
          has_kind = TRUE;
        }
      else if (strcmp (key, "t") == 0)
        {
          if (!ws_json_read_int (r, "t", WS_TIME_MIN, WS_TIME_MAX, &time))
            return FALSE;
          has_time = TRUE;
        }
      else if (strcmp (key, "dur") == 0)
        {
          if (!ws_json_read_int (r, "dur", 0, WS_TIME_MAX, &duration))
            return FALSE;
        }
      else if (strcmp (key, "tid") == 0)
        {
          if (!ws_json_read_int (r, "tid", G_MININT32, G_MAXINT32, &v))
            return FALSE;
          thread = (guint32) (gint32) v;
          has_tid = TRUE;
        }
      else if (strcmp (key, "life") == 0 || strcmp (key, "target_life") == 0)
        {
          gboolean of_target = key[0] == 't';
          if (!ws_json_read_int (r, of_target ? "target_life" : "life", 0, G_MAXUINT16, &v))
            return FALSE;
          lives = of_target ? (lives & 0xffffu) | ((guint) v << 16) : (lives & 0xffff0000u) | (guint) v;
        }
      else if (strcmp (key, "cpu") == 0)
        {
          if (!ws_json_read_int (r, "cpu", 0, G_MAXUINT16, &v))
            return FALSE;
          cpu = v;
        }
      else if (strcmp (key, "stack") == 0)
        {
          if (!ws_json_next_token (r, FALSE, &tok))
            return FALSE;
          if (tok.type == TOK_LBRACKET)
            {
              if (!parse_inline_stack (r, index, &stack))
                return FALSE;
              bits &= ~RAW_STACK_IS_FILE_ID;
            }
          else
            {
              if (!ws_json_to_int64 (r, &tok, "stack", 0, G_MAXUINT32 - 1, &v))
                return FALSE;
              stack = v;
              bits |= RAW_STACK_IS_FILE_ID;
            }
        }
      else if (strcmp (key, "state") == 0)
        {
          if (!ws_json_read_string (r, "state"))
            return FALSE;
          if (r->str->len != 1)
            return ws_json_reader_fail (r, WS_ERROR_PARSE, r->line,
                                _("event %u: “state” must be one character, found “%s”"),
                                index, r->str->str);
          state = (guchar) r->str->str[0];
        }
      else if (strcmp (key, "peer") == 0)
        {
          if (!ws_json_next_token (r, FALSE, &tok))
            return FALSE;
          bits &= ~RAW_PEER_ABSENT;
          if (tok.type != TOK_NULL)
            {
              peer_line = tok.line;
              if (!ws_json_to_int64 (r, &tok, "peer", 0, G_MAXUINT32 - 1, &v))
                return FALSE;
              peer = v;
            }
        }
      else if (strcmp (key, "target") == 0)
        {
          if (!ws_json_next_token (r, FALSE, &tok))
            return FALSE;
          target_line = tok.line;
          if (!ws_json_to_int64 (r, &tok, "target", G_MININT32, G_MAXINT32, &v))
            return FALSE;
          target = (guint32) (gint32) v;
          bits |= RAW_HAS_TARGET;
        }
      else if (strcmp (key, "name") == 0)
        {
          if (!ws_json_read_string (r, "name"))
            return FALSE;
          name = ws_trace_intern_string (r->trace, r->str->str);
          has_name = TRUE;
        }
      else if (strcmp (key, "latency") == 0)
        {
          latency_line = r->line;
          if (!ws_json_read_int (r, "latency", 0, WS_LATENCY_UNKNOWN - 1, &v))
            return FALSE;
          latency = v;
          has_latency = TRUE;
        }
      else if (strcmp (key, "flags") == 0)
        {
          guint f = 0;

          if (!parse_flags (r, index, &f))
            return FALSE;
          flags = f;
        }
      else if (!ws_json_next_token (r, FALSE, &tok) || !ws_json_skip_value (r, &tok, 1))
        return FALSE;
    }
  if (r->error)
    return FALSE;

  if (!has_kind || !has_time || !has_tid)
    return ws_json_reader_fail (r, WS_ERROR_MISSING_FIELD, line,
                        _("event %u: missing member “%s”"), index,
                        !has_kind ? "kind" : !has_time ? "t" : "tid");
  /* The model computes end times as t + dur. */
  if (time > 0 && duration > G_MAXINT64 - time)
    return ws_json_reader_fail (r, WS_ERROR_PARSE, line,
                        _("event %u: t + dur is beyond the largest time"), index);
  if ((kind == WS_EVENT_MARKER || kind == WS_EVENT_RUNNING) && (bits & RAW_HAS_TARGET))
    return ws_json_reader_fail (r, WS_ERROR_PARSE, target_line,
                        _("event %u: a marker or sample has a “name”, not a “target”"), index);
  if (kind != WS_EVENT_MARKER && kind != WS_EVENT_RUNNING && has_name)
    return ws_json_reader_fail (r, WS_ERROR_PARSE, line,
                        _("event %u: only markers and samples have a “name”"), index);
  if (has_name && (bits & RAW_HAS_TARGET))
    return ws_json_reader_fail (r, WS_ERROR_PARSE, line,
                        _("event %u: both “name” and “target”"), index);
  /* What the model has no word for (WsEvent): a wake-up takes no time,
   * only a wake-up makes a thread ready, only a wait has a ready latency,
   * and a marker or sample links to no event. */
  if ((kind == WS_EVENT_UNWAIT || kind == WS_EVENT_HW_SERVICE) && duration != 0)
    return ws_json_reader_fail (r, WS_ERROR_PARSE, line,
                        _("event %u: an unwait or hw-service event takes no time: its “dur” must be 0"), index);
  if (kind != WS_EVENT_UNWAIT && kind != WS_EVENT_HW_SERVICE && (bits & RAW_HAS_TARGET))
    return ws_json_reader_fail (r, WS_ERROR_PARSE, target_line,
                        _("event %u: only unwait and hw-service events have a “target”"), index);
  if (kind != WS_EVENT_WAIT && has_latency)
    return ws_json_reader_fail (r, WS_ERROR_PARSE, latency_line,
                        _("event %u: only waits have a “latency”"), index);
  if ((kind == WS_EVENT_MARKER || kind == WS_EVENT_RUNNING) && peer != WS_NONE)
    return ws_json_reader_fail (r, WS_ERROR_PARSE, peer_line,
                        _("event %u: a marker or sample has no “peer”"), index);

  ws_event_init (&ev, kind, time, thread);
  if (duration != 0)
    ws_event_set_duration (&ev, duration);
  ev.cpu = cpu;
  ev.stack = stack;
  ev.state = state;
  ev.flags = flags;
  if (kind == WS_EVENT_MARKER || kind == WS_EVENT_RUNNING)
    ws_event_set_name (&ev, name);
  else
    ev.peer = peer;
  if (bits & RAW_HAS_TARGET)
    ws_event_set_target (&ev, target);

  if (lives != 0)
    {
      if (r->event_lives == NULL)
        r->event_lives = g_hash_table_new (g_direct_hash, g_direct_equal);
      g_hash_table_insert (r->event_lives, GUINT_TO_POINTER (index), GUINT_TO_POINTER (lives));
    }
  ws_trace_add_event (r->trace, &ev);
  if (has_latency)
    ws_trace_set_wait_ready_latency (r->trace, index, latency);
  g_array_append_val (r->event_lines, line);
  g_array_append_val (r->event_bits, bits);
  return TRUE;
}

static gboolean
parse_events (Reader *r)
{
  gboolean first = TRUE;
  Token tok;

  if (!ws_json_begin_array (r, "events"))
    return FALSE;

  for (;;)
    {
      guint index = r->event_lines->len;

      if (!ws_json_next_element (r, &first, FALSE, &tok))
        return FALSE;
      if (tok.type == TOK_RBRACKET)
        return TRUE;
      if (index >= WS_NONE - 1)
        return ws_json_reader_fail (r, WS_ERROR_TOO_LONG, tok.line, "%s", _("too many events"));
      if (!ws_json_expect_object (r, &tok, _("event"), index) || !parse_event (r, index, tok.line))
        return FALSE;
    }
}

static gboolean
parse_instances (Reader *r)
{
  gboolean first = TRUE;
  Token tok;

  if (!ws_json_begin_array (r, "scenario_instances"))
    return FALSE;

  for (guint index = 0;; index++)
    {
      RawInstance raw = {
        .inst = { .scenario = WS_NONE, .begin_event = WS_NONE, .end_event = WS_NONE },
        .index = index,
      };
      gboolean first_member = TRUE, more, has_tid = FALSE, has_t0 = FALSE, has_t1 = FALSE;
      gint64 v;

      if (!ws_json_next_element (r, &first, FALSE, &tok))
        return FALSE;
      if (tok.type == TOK_RBRACKET)
        return TRUE;
      if (!ws_json_expect_object (r, &tok, _("scenario instance"), index))
        return FALSE;
      raw.line = tok.line;

      while (ws_json_iter_object (r, &first_member, &more) && more)
        {
          const char *key = r->str->str;

          if (strcmp (key, "scenario") == 0)
            {
              if (!ws_json_read_string (r, "scenario"))
                return FALSE;
              raw.inst.scenario = ws_trace_intern_string (r->trace, r->str->str);
            }
          else if (strcmp (key, "tid") == 0)
            {
              if (!ws_json_read_int (r, "tid", G_MININT32, G_MAXINT32, &v))
                return FALSE;
              raw.inst.thread = (guint32) (gint32) v;
              has_tid = TRUE;
            }
          else if (strcmp (key, "life") == 0)
            {
              if (!ws_json_read_int (r, "life", 0, G_MAXUINT16, &v))
                return FALSE;
              raw.life = v;
            }
          else if (strcmp (key, "t0") == 0)
            {
              if (!ws_json_read_int (r, "t0", WS_TIME_MIN, WS_TIME_MAX, &raw.inst.t0))
                return FALSE;
              has_t0 = TRUE;
            }
          else if (strcmp (key, "t1") == 0)
            {
              if (!ws_json_read_int (r, "t1", WS_TIME_MIN, WS_TIME_MAX, &raw.inst.t1))
                return FALSE;
              has_t1 = TRUE;
            }
          else if (strcmp (key, "begin") == 0 || strcmp (key, "end") == 0)
            {
              gboolean is_begin = key[0] == 'b';
              if (!ws_json_next_token (r, FALSE, &tok))
                return FALSE;
              if (tok.type != TOK_NULL)
                {
                  if (!ws_json_to_int64 (r, &tok, is_begin ? "begin" : "end", 0, G_MAXUINT32 - 1, &v))
                    return FALSE;
                  if (is_begin)
                    raw.inst.begin_event = v;
                  else
                    raw.inst.end_event = v;
                }
            }
          else if (!ws_json_next_token (r, FALSE, &tok) || !ws_json_skip_value (r, &tok, 1))
            return FALSE;
        }
      if (r->error)
        return FALSE;

      if (raw.inst.scenario == WS_NONE || !has_tid || !has_t0 || !has_t1)
        return ws_json_reader_fail (r, WS_ERROR_MISSING_FIELD, raw.line,
                            _("%s %u: missing member “%s”"), _("scenario instance"), index,
                            raw.inst.scenario == WS_NONE ? "scenario"
                            : !has_tid ? "tid" : !has_t0 ? "t0" : "t1");
      if (raw.inst.t1 < raw.inst.t0)
        return ws_json_reader_fail (r, WS_ERROR_PARSE, raw.line,
                            _("scenario instance %u: t1 is before t0"), index);
      g_array_append_val (r->instances, raw);
    }
}

static gboolean
parse_document (Reader *r)
{
  gboolean first = TRUE, more;
  Token tok;
  int c;

  /* A byte-order mark, as some editors on other systems write. */
  if (ws_json_peek_byte (r) == 0xEF && r->len - r->pos >= 3
      && r->buf[r->pos + 1] == 0xBB && r->buf[r->pos + 2] == 0xBF)
    r->pos += 3;

  /* Say "not a trace" rather than "unexpected byte" for other files. */
  while ((c = ws_json_peek_byte (r)) == ' ' || c == '\t' || c == '\r' || c == '\n')
    {
      r->line += c == '\n';
      r->pos++;
    }
  if (c == -2)
    return FALSE;
  if (c >= 0 && c != '{')
    return ws_json_reader_fail (r, c == 0 ? WS_ERROR_BINARY : WS_ERROR_PARSE, r->line, "%s",
                        _("not a Waitscope JSON trace: it does not start with “{”"));

  if (!ws_json_next_token (r, FALSE, &tok))
    return FALSE;
  if (tok.type == TOK_EOF)
    return ws_json_reader_fail (r, WS_ERROR_EMPTY, tok.line, "%s", _("the file is empty"));
  if (tok.type != TOK_LBRACE)
    return ws_json_reader_fail (r, WS_ERROR_PARSE, tok.line,
                        _("not a Waitscope JSON trace: expected “{”, found %s"),
                        ws_json_token_description (tok.type));

  while (ws_json_iter_object (r, &first, &more) && more)
    {
      const char *key = r->str->str;
      guint line = r->line;

      if (strcmp (key, "format") == 0)
        {
          if (!ws_json_read_string (r, "format"))
            return FALSE;
          if (strcmp (r->str->str, WS_JSON_TRACE_FORMAT) != 0)
            return ws_json_reader_fail (r, WS_ERROR_PARSE, line,
                                _("not a Waitscope JSON trace: “format” is “%s”, not “%s”"),
                                r->str->str, WS_JSON_TRACE_FORMAT);
          r->seen_format = TRUE;
        }
      else if (strcmp (key, "version") == 0)
        {
          gint64 version;
          if (!ws_json_read_int (r, "version", G_MININT64, G_MAXINT64, &version))
            return FALSE;
          if (version > WS_JSON_TRACE_VERSION || version < 1)
            return ws_json_reader_fail (r, WS_ERROR_PARSE, line,
                                _("format version %lld is not supported (this Waitscope reads version %d)"),
                                (long long) version, WS_JSON_TRACE_VERSION);
          r->seen_version = TRUE;
        }
      else if (strcmp (key, "name") == 0)
        {
          if (!ws_json_read_string (r, "name"))
            return FALSE;
          ws_trace_set_name (r->trace, r->str->str);
        }
      else if (strcmp (key, "frames") == 0)
        {
          if (!parse_frames (r))
            return FALSE;
        }
      else if (strcmp (key, "stacks") == 0)
        {
          if (!parse_stacks (r))
            return FALSE;
        }
      else if (strcmp (key, "processes") == 0)
        {
          if (!parse_processes (r))
            return FALSE;
        }
      else if (strcmp (key, "threads") == 0)
        {
          if (!parse_threads (r))
            return FALSE;
        }
      else if (strcmp (key, "events") == 0)
        {
          if (!parse_events (r))
            return FALSE;
        }
      else if (strcmp (key, "scenario_instances") == 0)
        {
          if (!parse_instances (r))
            return FALSE;
        }
      else if (!ws_json_next_token (r, FALSE, &tok) || !ws_json_skip_value (r, &tok, 1))
        return FALSE;
    }
  if (r->error)
    return FALSE;

  if (!ws_json_next_token (r, FALSE, &tok))
    return FALSE;
  if (tok.type != TOK_EOF)
    return ws_json_reader_fail (r, WS_ERROR_PARSE, tok.line, _("unexpected %s after the end of the trace object"),
                        ws_json_token_description (tok.type));

  if (!r->seen_format)
    return ws_json_reader_fail (r, WS_ERROR_MISSING_FIELD, 1, _("missing member “%s”"), "format");
  if (!r->seen_version)
    return ws_json_reader_fail (r, WS_ERROR_MISSING_FIELD, 1, _("missing member “%s”"), "version");

  return TRUE;
}

/* The file's stacks interned, by file stack id. */
static gboolean
resolve_stacks (Reader  *r,
                guint32 *stack_map)
{
  guint n_stacks = r->stack_lines->len;
  g_autoptr(GArray) frames = g_array_new (FALSE, FALSE, sizeof (WsFrameId));

  stack_map[0] = WS_STACK_EMPTY;
  for (guint s = 0; s < n_stacks; s++)
    {
      const guint32 *span = &g_array_index (r->stack_offsets, guint32, 2 * s);

      g_array_set_size (frames, 0);
      for (guint k = 0; k < span[1]; k++)
        {
          guint32 f = g_array_index (r->stack_frames, guint32, span[0] + k);
          if (f >= r->frame_map->len)
            return ws_json_reader_fail (r, WS_ERROR_INVALID, g_array_index (r->stack_lines, guint32, s),
                                _("stack %u: frame %u does not exist (there are %u frames)"),
                                s, f, r->frame_map->len);
          g_array_append_val (frames, g_array_index (r->frame_map, WsFrameId, f));
        }
      stack_map[s] = ws_stack_table_intern_stack (r->stacks, (const WsFrameId *) (gpointer) frames->data,
                                                  frames->len);
    }
  return TRUE;
}

/* One event's raw thread, target, stack and peer made model indices. */
static gboolean
resolve_event (Reader        *r,
               guint          i,
               const guint32 *stack_map)
{
  guint n_events = r->event_lines->len;
  guint n_stacks = r->stack_lines->len;
  const guint32 *lines = (const guint32 *) (gconstpointer) r->event_lines->data;
  const guint8 *bits = (const guint8 *) (gconstpointer) r->event_bits->data;
  WsEvent *e = ws_trace_peek_event (r->trace, i);
  guint thread, lives = 0;

  if (r->event_lives != NULL)
    lives = GPOINTER_TO_UINT (g_hash_table_lookup (r->event_lives, GUINT_TO_POINTER (i)));
  if ((thread = find_life (r, (gint32) e->thread, lives & 0xffff)) == WS_NONE)
    return (lives & 0xffff) == 0
           ? ws_json_reader_fail (r, WS_ERROR_INVALID, lines[i],
                                  _("event %u: thread %d is not listed in “threads”"),
                                  i, (gint32) e->thread)
           : ws_json_reader_fail (r, WS_ERROR_INVALID, lines[i],
                                  _("event %u: life %u of thread %d is not listed in “threads”"),
                                  i, lives & 0xffff, (gint32) e->thread);
  e->thread = thread;

  if (bits[i] & RAW_HAS_TARGET)
    {
      gint32 tid = (gint32) ws_event_target (e);

      if ((thread = find_life (r, tid, lives >> 16)) == WS_NONE)
        return (lives >> 16) == 0
               ? ws_json_reader_fail (r, WS_ERROR_INVALID, lines[i],
                                      _("event %u: target thread %d is not listed in “threads”"),
                                      i, tid)
               : ws_json_reader_fail (r, WS_ERROR_INVALID, lines[i],
                                      _("event %u: life %u of target thread %d is not listed in “threads”"),
                                      i, lives >> 16, tid);
      ws_event_set_target (e, thread);
    }

  if (bits[i] & RAW_STACK_IS_FILE_ID)
    {
      /* Stack 0 is the empty stack, whether or not "stacks" lists it. */
      if (e->stack != 0 && e->stack >= n_stacks)
        return ws_json_reader_fail (r, WS_ERROR_INVALID, lines[i],
                            _("event %u: stack %u does not exist (there are %u stacks)"),
                            i, e->stack, n_stacks);
      e->stack = stack_map[e->stack];
    }

  if (ws_event_peer (e) != WS_NONE)
    {
      const WsEvent *p;

      if (e->peer >= n_events)
        return ws_json_reader_fail (r, WS_ERROR_INVALID, lines[i],
                            _("event %u: peer event %u does not exist (there are %u events)"),
                            i, e->peer, n_events);
      p = ws_trace_peek_event (r->trace, e->peer);
      if (e->kind == WS_EVENT_WAIT && p->kind != WS_EVENT_UNWAIT && p->kind != WS_EVENT_HW_SERVICE)
        return ws_json_reader_fail (r, WS_ERROR_INVALID, lines[i],
                            _("event %u: the peer of a wait must be an unwait or hw-service event, event %u is a %s"),
                            i, e->peer, ws_event_kind_to_string (p->kind));
      if ((e->kind == WS_EVENT_UNWAIT || e->kind == WS_EVENT_HW_SERVICE) && p->kind != WS_EVENT_WAIT)
        return ws_json_reader_fail (r, WS_ERROR_INVALID, lines[i],
                            _("event %u: the peer of an unwait or hw-service event must be a wait, event %u is a %s"),
                            i, e->peer, ws_event_kind_to_string (p->kind));
    }
  return TRUE;
}

/* A link the other end does not return (a wait naming an unwait that
 * names another wait, or "peer": null) would make the readier of a wait
 * depend on which end the analysis starts from: refuse it. */
static gboolean
check_peers_point_back (Reader *r)
{
  guint n_events = r->event_lines->len;
  const guint32 *lines = (const guint32 *) (gconstpointer) r->event_lines->data;

  for (guint i = 0; i < n_events; i++)
    {
      const WsEvent *e = ws_trace_peek_event (r->trace, i);
      const WsEvent *p;

      if (ws_event_peer (e) == WS_NONE)
        continue;
      p = ws_trace_peek_event (r->trace, e->peer);
      if (ws_event_peer (p) == i)
        continue;
      if (ws_event_peer (p) == WS_NONE)
        return ws_json_reader_fail (r, WS_ERROR_INVALID, lines[i],
                                    _("event %u: its peer, event %u, does not point back at it "
                                      "(event %u names no peer)"),
                                    i, e->peer, e->peer);
      return ws_json_reader_fail (r, WS_ERROR_INVALID, lines[i],
                                  _("event %u: its peer, event %u, does not point back at it "
                                    "(the peer of event %u is event %u)"),
                                  i, e->peer, e->peer, p->peer);
    }
  return TRUE;
}

/* A scenario instance is delimited by recorded markers; a wait or a run
 * as its begin is a file that means something else than it says. */
static gboolean
check_instance_event (Reader      *r,
                      RawInstance *raw,
                      guint        event,
                      const char  *member)
{
  const WsEvent *e;

  if (event == WS_NONE)
    return TRUE;
  e = ws_trace_peek_event (r->trace, event);
  if (e->kind == WS_EVENT_MARKER)
    return TRUE;
  return ws_json_reader_fail (r, WS_ERROR_INVALID, raw->line,
                              _("scenario instance %u: “%s” must be a marker event, event %u is a %s"),
                              raw->index, member, event, ws_event_kind_to_string (e->kind));
}

static gboolean
resolve_instances (Reader *r)
{
  guint n_events = r->event_lines->len;

  for (guint k = 0; k < r->instances->len; k++)
    {
      RawInstance *raw = &g_array_index (r->instances, RawInstance, k);
      guint thread = find_life (r, (gint32) raw->inst.thread, raw->life);

      if (thread == WS_NONE)
        return raw->life == 0
               ? ws_json_reader_fail (r, WS_ERROR_INVALID, raw->line,
                                      _("scenario instance %u: thread %d is not listed in “threads”"),
                                      raw->index, (gint32) raw->inst.thread)
               : ws_json_reader_fail (r, WS_ERROR_INVALID, raw->line,
                                      _("scenario instance %u: life %u of thread %d is not listed in “threads”"),
                                      raw->index, raw->life, (gint32) raw->inst.thread);
      if ((raw->inst.begin_event != WS_NONE && raw->inst.begin_event >= n_events)
          || (raw->inst.end_event != WS_NONE && raw->inst.end_event >= n_events))
        return ws_json_reader_fail (r, WS_ERROR_INVALID, raw->line,
                            _("scenario instance %u: event %u does not exist (there are %u events)"),
                            raw->index,
                            raw->inst.begin_event != WS_NONE && raw->inst.begin_event >= n_events
                            ? raw->inst.begin_event : raw->inst.end_event,
                            n_events);
      if (!check_instance_event (r, raw, raw->inst.begin_event, "begin")
          || !check_instance_event (r, raw, raw->inst.end_event, "end"))
        return FALSE;
      raw->inst.thread = thread;
      ws_trace_add_scenario_instance (r->trace, &raw->inst);
    }
  return TRUE;
}

static gboolean
resolve (Reader *r)
{
  guint n_events = r->event_lines->len;
  g_autofree guint32 *stack_map = g_new (guint32, MAX (r->stack_lines->len, 1));
  const guint32 *lines = (const guint32 *) (gconstpointer) r->event_lines->data;
  const guint8 *bits = (const guint8 *) (gconstpointer) r->event_bits->data;

  if (!resolve_stacks (r, stack_map))
    return FALSE;
  for (guint i = 0; i < n_events; i++)
    {
      if ((i & 0xffff) == 0 && g_cancellable_is_cancelled (r->cancellable))
        return ws_json_reader_fail (r, WS_ERROR_CANCELLED, lines[i], "%s", _("cancelled"));
      if (!resolve_event (r, i, stack_map))
        return FALSE;
    }

  /* Hand-written traces may give the link on the wait only ("peer" absent
   * on the unwait): fill in the back link.  The writer writes "peer": null
   * where the model has none, so a written trace reads back unchanged. */
  for (guint i = 0; i < n_events; i++)
    {
      WsEvent *e = ws_trace_peek_event (r->trace, i);

      if (e->kind == WS_EVENT_WAIT && e->peer != WS_NONE)
        {
          WsEvent *p = ws_trace_peek_event (r->trace, e->peer);
          if ((bits[e->peer] & RAW_PEER_ABSENT) && p->peer == WS_NONE)
            p->peer = i;
        }
    }

  if (!check_peers_point_back (r) || !resolve_instances (r))
    return FALSE;

  /* As after a perf import, a reused tid names its last thread. */
  if (r->lives != NULL)
    for (guint t = 0; t < ws_trace_get_n_threads (r->trace); t++)
      ws_trace_bind_tid (r->trace, ws_trace_get_thread (r->trace, t)->tid, t);
  return TRUE;
}

static WsTrace *
load_internal (GInputStream   *stream,
               const char     *path,
               const char     *display_name,
               WsStackTable   *stacks,
               GSeekable      *position_source,
               goffset         total_size,
               WsProgressFunc  progress,
               gpointer        progress_data,
               GCancellable   *cancellable,
               GError        **error)
{
  Reader r = {
    .stream = stream,
    .cancellable = cancellable,
    .name = g_strdup (display_name),
    .buf = g_malloc (READ_CHUNK),
    .line = 1,
    .position_source = position_source,
    .total_size = total_size,
    .progress = progress,
    .progress_data = progress_data,
    .str = g_string_sized_new (256),
    .trace = ws_trace_new (path, stacks),
    .frame_map = g_array_new (FALSE, FALSE, sizeof (WsFrameId)),
    .stack_offsets = g_array_new (FALSE, FALSE, sizeof (guint32)),
    .stack_frames = g_array_new (FALSE, FALSE, sizeof (guint32)),
    .stack_lines = g_array_new (FALSE, FALSE, sizeof (guint32)),
    .event_lines = g_array_new (FALSE, FALSE, sizeof (guint32)),
    .event_bits = g_array_new (FALSE, FALSE, sizeof (guint8)),
    .instances = g_array_new (FALSE, FALSE, sizeof (RawInstance)),
  };
  WsTrace *trace = NULL;

  r.stacks = g_object_ref (ws_trace_get_stack_table (r.trace));

  if (parse_document (&r) && resolve (&r))
    {
      if (progress)
        progress (0.95, _("Indexing events"), progress_data);
      ws_trace_finish (r.trace);
      trace = g_steal_pointer (&r.trace);
      if (progress)
        progress (1.0, NULL, progress_data);
    }
  else
    g_propagate_error (error, g_steal_pointer (&r.error));

  ws_json_reader_clear (&r);
  return trace;
}

/**
 * ws_json_trace_load_stream:
 * @stream: uncompressed JSON text
 * @display_name: the name used in error messages ("FILE:LINE: …") and as
 *   the trace's path
 * @stacks: (nullable): a stack table to share, or %NULL for a new one.  It
 *   is not locked: do not load into one table from two threads at once.
 *
 * Returns: (transfer full) (nullable): the trace, or %NULL with @error set
 */
WsTrace *
ws_json_trace_load_stream (GInputStream   *stream,
                           const char     *display_name,
                           WsStackTable   *stacks,
                           WsProgressFunc  progress,
                           gpointer        progress_data,
                           GCancellable   *cancellable,
                           GError        **error)
{
  g_return_val_if_fail (G_IS_INPUT_STREAM (stream), NULL);
  g_return_val_if_fail (display_name != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  return load_internal (stream, display_name, display_name, stacks, NULL, 0,
                        progress, progress_data, cancellable, error);
}

/**
 * ws_json_trace_load:
 * @path: a `.json` file, or a gzip-compressed one
 *
 * Returns: (transfer full) (nullable): the trace, or %NULL with @error set
 */
WsTrace *
ws_json_trace_load (const char     *path,
                    WsStackTable   *stacks,
                    WsProgressFunc  progress,
                    gpointer        progress_data,
                    GCancellable   *cancellable,
                    GError        **error)
{
  g_autoptr(GFileInputStream) in = NULL;
  g_autoptr(GFileInfo) info = NULL;
  g_autoptr(GInputStream) stream = NULL;
  gboolean compressed = FALSE;

  g_return_val_if_fail (path != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if ((in = ws_importer_open_file (path, &compressed, cancellable, error)) == NULL)
    return NULL;

  info = g_file_input_stream_query_info (in, G_FILE_ATTRIBUTE_STANDARD_SIZE, cancellable, NULL);

  stream = ws_importer_text_stream (G_INPUT_STREAM (in), compressed);

  return load_internal (stream, path, path, stacks, G_SEEKABLE (in),
                        info ? g_file_info_get_size (info) : 0,
                        progress, progress_data, cancellable, error);
}

/**
 * ws_json_trace_sniff:
 *
 * Returns: whether @head (the first bytes of the uncompressed input) look
 * like a JSON document: an object, after optional whitespace and BOM.
 */
gboolean
ws_json_trace_sniff (const guint8 *head,
                     gsize         len)
{
  gsize i = 0;

  if (len >= 3 && head[0] == 0xEF && head[1] == 0xBB && head[2] == 0xBF)
    i = 3;
  while (i < len && (head[i] == ' ' || head[i] == '\t' || head[i] == '\r' || head[i] == '\n'))
    i++;
  return i < len && head[i] == '{';
}


static WsTrace *
json_load_stream (GInputStream   *stream,
                  const char     *display_name,
                  gboolean        compressed,
                  WsStackTable   *stacks,
                  WsProgressFunc  progress,
                  gpointer        progress_data,
                  GCancellable   *cancellable,
                  GError        **error)
{
  g_autoptr(GInputStream) text = ws_importer_text_stream (stream, compressed);

  return ws_json_trace_load_stream (text, display_name, stacks, progress, progress_data,
                                    cancellable, error);
}

static const char * const json_patterns[] = { "*.json", "*.json.gz", NULL };

const WsImporter ws_json_importer = {
  .id = "json",
  .name = N_("Waitscope JSON trace"),
  .patterns = json_patterns,
  .sniff = ws_json_trace_sniff,
  .load_file = ws_json_trace_load,
  .load_stream = json_load_stream,
};
