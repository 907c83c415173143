/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Folded stacks, as stackcollapse-perf.pl and `waitscope-cli collapse`
 * write them: one line per distinct stack, "comm;caller;…;leaf COUNT".
 * The first frame is the process name (with stackcollapse-perf's --pid or
 * --tid, "comm-PID" or "comm-PID/TID"); the rest is the stack, caller
 * first, as Waitscope stores it.  Each line becomes one sampled running
 * event whose cost (duration) is COUNT, so the stacks can be mined and
 * clustered like those of a trace.  A folded file has no time: each
 * thread's lines are laid end to end from 0, in file order.
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <glib/gi18n-lib.h>

#include "ws-error.h"
#include "ws-folded-importer.h"
#include "ws-importer.h"
#include "ws-importer-open.h"
#include "ws-trace-private.h"

#define MAX_LINE (1024 * 1024)

typedef struct {
  guint32 thread;
  WsTime  next_time;
} FoldedThread;

typedef struct {
  const char   *display_name;
  WsTrace      *trace;
  WsStackTable *stacks;
  GHashTable   *threads;     /* first frame -> FoldedThread */
  GArray       *frames;      /* WsFrameId */
  gint32        next_tid;
  guint64       line_no;
} Folder;

/* "NAME 123" or "NAME 1.5": where the count starts, or NULL. */
static const char *
find_count (const char *line,
            gsize       len)
{
  const char *space = NULL;
  gboolean digit = FALSE, dot = FALSE;

  for (const char *s = line + len; s > line; s--)
    {
      char c = s[-1];

      if (g_ascii_isdigit (c))
        digit = TRUE;
      else if (c == '.' && !dot)
        dot = TRUE;
      else
        {
          if (c == ' ' && digit && s - 1 > line)
            space = s - 1;
          break;
        }
    }
  return space;
}

/* Lines as stackcollapse writes them: no leading blank, a count at the end. */
static gboolean
is_folded_line (const char *line,
                gsize       len)
{
  if (len == 0 || line[0] == ' ' || line[0] == '\t' || memchr (line, '\t', len) != NULL)
    return FALSE;
  return find_count (line, len) != NULL;
}

/**
 * ws_folded_importer_sniff:
 *
 * Returns: whether @head holds folded stacks: its complete lines (blank
 *   ones aside) "frame;frame;… COUNT", at least one with a ';' -- or at
 *   least the first two of them
 */
gboolean
ws_folded_importer_sniff (const guint8 *head,
                          gsize         len)
{
  const char *s = (const char *) head, *end = s + len;
  gboolean semicolon = FALSE;
  guint n_lines = 0;

  if (memchr (head, '\0', len) != NULL)
    return FALSE;
  while (s < end)
    {
      const char *nl = memchr (s, '\n', end - s);
      gsize line_len;

      if (nl == NULL && n_lines > 0)
        break;   /* the head may cut the last line */
      line_len = (nl ? nl : end) - s;
      if (line_len > 0 && s[line_len - 1] == '\r')
        line_len--;
      if (line_len > 0)
        {
          /* Two good lines are proof enough: a bad one later is the
           * loader's to report, with its line number. */
          if (!is_folded_line (s, line_len))
            return n_lines >= 2 && semicolon;
          semicolon |= memchr (s, ';', line_len) != NULL;
          n_lines++;
        }
      if (nl == NULL)
        break;
      s = nl + 1;
    }
  return n_lines > 0 && semicolon;
}

/* "comm-PID/TID", "comm-PID" or "comm": the thread a first frame names. */
static FoldedThread *
lookup_thread (Folder     *f,
               const char *name,
               gsize       len)
{
  g_autofree char *key = g_strndup (name, len);
  FoldedThread *t = g_hash_table_lookup (f->threads, key);
  g_autoptr(GMatchInfo) match = NULL;
  static GRegex *ids;
  g_autofree char *comm = NULL;
  gint32 pid, tid;

  if (t != NULL)
    return t;

  if (g_once_init_enter (&ids))
    g_once_init_leave (&ids, g_regex_new ("^(.*)-(\\d{1,9})(?:/(\\d{1,9}))?$", G_REGEX_OPTIMIZE, 0, NULL));
  if (g_regex_match (ids, key, 0, &match))
    {
      g_autofree char *p = g_match_info_fetch (match, 2);
      g_autofree char *tt = g_match_info_fetch (match, 3);

      comm = g_match_info_fetch (match, 1);
      pid = atoi (p);
      tid = tt && *tt ? atoi (tt) : pid;
    }
  else
    {
      /* No ids: a made-up one per name, far above real pids. */
      comm = g_strdup (key);
      pid = tid = f->next_tid++;
    }

  t = g_new0 (FoldedThread, 1);
  t->thread = ws_trace_ensure_thread (f->trace, tid, pid);
  if (*comm)
    {
      ws_trace_set_thread_name (f->trace, t->thread, comm);
      ws_trace_set_process_name (f->trace, pid, comm);
    }
  g_hash_table_insert (f->threads, g_steal_pointer (&key), t);
  return t;
}

static gboolean
parse_folded_line (Folder     *f,
                   const char *line,
                   gsize       len,
                   GError    **error)
{
  const char *count_at = find_count (line, len), *s, *stack_end;
  g_autofree char *count_text = NULL;
  FoldedThread *t;
  WsEvent e = { 0 };
  double count;
  char *end;

  if (count_at == NULL)
    {
      g_set_error (error, WS_ERROR, WS_ERROR_PARSE, "%s:%" G_GUINT64_FORMAT ": %s", f->display_name,
                   f->line_no, _("not a folded stack line (expected “frame;frame;… COUNT”)"));
      return FALSE;
    }
  count_text = g_strndup (count_at + 1, line + len - (count_at + 1));
  errno = 0;
  count = g_ascii_strtod (count_text, &end);
  if (errno != 0 || *end != '\0' || count < 0 || count > 1e18)
    {
      g_set_error (error, WS_ERROR, WS_ERROR_PARSE, "%s:%" G_GUINT64_FORMAT ": %s", f->display_name,
                   f->line_no, _("the count at the end of the line is not a number"));
      return FALSE;
    }

  /* The first frame names the thread; the others are the stack. */
  stack_end = count_at;
  s = memchr (line, ';', stack_end - line);
  t = lookup_thread (f, line, (s ? s : stack_end) - line);
  /* A thread's samples are laid end to end: they must end by WS_TIME_MAX. */
  if ((WsTime) count >= WS_TIME_MAX - t->next_time)
    {
      g_set_error (error, WS_ERROR, WS_ERROR_PARSE, "%s:%" G_GUINT64_FORMAT ": %s", f->display_name,
                   f->line_no, _("the thread’s counts add up beyond the largest time: out of range"));
      return FALSE;
    }
  g_array_set_size (f->frames, 0);
  while (s != NULL && s < stack_end)
    {
      const char *frame = s + 1, *next = memchr (frame, ';', stack_end - frame);
      const char *frame_end = next ? next : stack_end;
      WsFrameId id = ws_stack_table_intern_frame_len (f->stacks, frame, frame_end - frame, NULL, 0);

      g_array_append_val (f->frames, id);
      s = next;
    }

  ws_event_init (&e, WS_EVENT_RUNNING, t->next_time, t->thread);
  ws_event_set_duration (&e, (WsTime) count);
  e.stack = f->frames->len > 0
            ? ws_stack_table_intern_stack (f->stacks, (WsFrameId *) f->frames->data, f->frames->len)
            : WS_STACK_EMPTY;
  ws_trace_add_event (f->trace, &e);
  t->next_time += MAX ((WsTime) count, 1);
  return TRUE;
}

static gboolean
read_lines (Folder        *f,
            GInputStream  *stream,
            GCancellable  *cancellable,
            GError       **error)
{
  g_autoptr(GDataInputStream) data = g_data_input_stream_new (stream);
  g_autoptr(GError) local_error = NULL;

  g_data_input_stream_set_newline_type (data, G_DATA_STREAM_NEWLINE_TYPE_ANY);
  for (;;)
    {
      gsize len = 0;
      g_autofree char *line = g_data_input_stream_read_line (data, &len, cancellable, &local_error);

      if (line == NULL)
        break;
      f->line_no++;
      if (len > MAX_LINE)
        {
          g_set_error (error, WS_ERROR, WS_ERROR_TOO_LONG, "%s:%" G_GUINT64_FORMAT ": %s",
                       f->display_name, f->line_no, _("a line longer than 1 MiB: not folded stacks"));
          return FALSE;
        }
      if (len == 0 || line[0] == '#')
        continue;
      if (memchr (line, '\0', len) != NULL)
        {
          g_set_error (error, WS_ERROR, WS_ERROR_BINARY, "%s:%" G_GUINT64_FORMAT ": %s",
                       f->display_name, f->line_no, _("binary data, not folded stacks"));
          return FALSE;
        }
      /* Names that are not UTF-8 become U+FFFD here, once, as the stack
       * table would make them: the thread-id pattern (a GRegex, which
       * reads past the end of a bad sequence) must only ever see UTF-8. */
      if (!g_utf8_validate_len (line, len, NULL))
        {
          char *valid = g_utf8_make_valid (line, len);

          g_free (line);
          line = valid;
          len = strlen (line);
        }
      if (!parse_folded_line (f, line, len, error))
        return FALSE;
    }
  if (local_error != NULL)
    {
      WsError code = local_error->domain == WS_ERROR ? (WsError) local_error->code   /* gzip ceiling */
                     : g_error_matches (local_error, G_IO_ERROR, G_IO_ERROR_CANCELLED)
                     ? WS_ERROR_CANCELLED : WS_ERROR_IO;
      g_set_error (error, WS_ERROR, code, "%s:%" G_GUINT64_FORMAT ": %s", f->display_name,
                   f->line_no + 1, local_error->message);
      return FALSE;
    }
  return TRUE;
}

/**
 * ws_folded_importer_load_stream:
 * @stream: folded stacks (text; see ws_importer_text_stream() for gzip)
 * @display_name: names the input in messages
 * @stacks: (nullable): a stack table to share
 *
 * Returns: (transfer full): a trace of one sampled running event per line,
 *   or %NULL with @error set ("FILE:LINE: …")
 */
WsTrace *
ws_folded_importer_load_stream (GInputStream   *stream,
                                const char     *display_name,
                                WsStackTable   *stacks,
                                WsProgressFunc  progress,
                                gpointer        progress_data,
                                GCancellable   *cancellable,
                                GError        **error)
{
  g_autoptr(WsTrace) trace = NULL;
  Folder f = { 0 };
  gboolean ok;

  g_return_val_if_fail (G_IS_INPUT_STREAM (stream), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  trace = ws_trace_new (display_name, stacks);
  f.display_name = display_name;
  f.trace = trace;
  f.stacks = ws_trace_get_stack_table (trace);
  f.threads = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  f.frames = g_array_new (FALSE, FALSE, sizeof (WsFrameId));
  f.next_tid = 1000000000;
  ok = read_lines (&f, stream, cancellable, error);
  g_hash_table_unref (f.threads);
  g_array_unref (f.frames);
  if (!ok)
    return NULL;
  if (ws_trace_get_n_events (trace) == 0)
    {
      g_set_error (error, WS_ERROR, WS_ERROR_EMPTY, "%s:%" G_GUINT64_FORMAT ": %s", display_name,
                   MAX (f.line_no, 1), _("no folded stacks in this file"));
      return NULL;
    }
  ws_trace_finish (trace);
  if (progress != NULL)
    progress (1.0, _("Reading folded stacks"), progress_data);
  return g_steal_pointer (&trace);
}

/**
 * ws_folded_importer_load:
 * @path: a folded-stacks file, gzip-compressed or not
 *
 * Returns: (transfer full): the trace, or %NULL with @error set
 */
WsTrace *
ws_folded_importer_load (const char     *path,
                         WsStackTable   *stacks,
                         WsProgressFunc  progress,
                         gpointer        progress_data,
                         GCancellable   *cancellable,
                         GError        **error)
{
  g_autoptr(GFileInputStream) in = NULL;
  g_autoptr(GInputStream) text = NULL;
  gboolean compressed = FALSE;

  if ((in = ws_importer_open_file (path, &compressed, cancellable, error)) == NULL)
    return NULL;
  text = ws_importer_text_stream (G_INPUT_STREAM (in), compressed);
  return ws_folded_importer_load_stream (text, path, stacks, progress, progress_data,
                                         cancellable, error);
}

static WsTrace *
folded_load_stream (GInputStream   *stream,
                    const char     *display_name,
                    gboolean        compressed,
                    WsStackTable   *stacks,
                    WsProgressFunc  progress,
                    gpointer        progress_data,
                    GCancellable   *cancellable,
                    GError        **error)
{
  g_autoptr(GInputStream) text = ws_importer_text_stream (stream, compressed);

  return ws_folded_importer_load_stream (text, display_name, stacks, progress, progress_data,
                                         cancellable, error);
}

static const char * const folded_patterns[] = {
  "*.folded", "*.folded.gz", "*.collapsed", "*.collapsed.gz", NULL
};

const WsImporter ws_folded_importer = {
  .id = "folded",
  .name = N_("folded stacks"),
  .patterns = folded_patterns,
  .sniff = ws_folded_importer_sniff,
  .load_file = ws_folded_importer_load,
  .load_stream = folded_load_stream,
};
