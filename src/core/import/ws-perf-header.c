/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Recognising a `perf script` event header line in whatever layout the
 * producer printed.  perf prints, each only when asked for (-F) or
 * recorded:
 *
 *     COMM  PID/TID | TID | PID  [CPU]  SECONDS:  PERIOD  EVENT:  REST
 *
 * COMM may hold spaces and digits ("C2 CompilerThre", "Web Content 2"),
 * and is right-aligned, so a header may start with spaces; without COMM
 * the line starts with the id.  EVENT is any name ending in ':' (cycles:,
 * cycles:ppp:, sched:sched_switch:, cpu/mem-loads,ldlat=30/P:); REST is the
 * tracepoint's fields, or the sample's "ip sym (dso)" when the call graph is
 * not printed.  The header is found by its anchors rather than split by
 * position: the timestamp token (digits '.' digits ':'), or, in layouts
 * without time, the first name ending in ':' after an id.  The id is the
 * token just before the anchor (a [CPU] token skipped), COMM everything
 * before the id.
 */
#include "config.h"

#include <glib/gi18n-lib.h>

#include "ws-perf-private.h"

#define MAX_TOKENS 32

typedef struct {
  const char *start;
  const char *end;
} Token;

static gboolean
is_cpu_token (const Token *t,
              guint       *cpu)
{
  guint64 v;
  const char *q;

  if (t->end - t->start < 3 || t->start[0] != '[' || t->end[-1] != ']')
    return FALSE;
  q = parse_u64 (t->start + 1, t->end - 1, &v);
  if (q != t->end - 1 || v > G_MAXUINT16)
    return FALSE;
  *cpu = (guint) v;
  return TRUE;
}

/* "TID", "PID/TID", "-1/0"; perf prints the pid first. */
static gboolean
is_id_token (const Token *t,
             gint32      *pid,
             gint32      *tid)
{
  gint32 a, b;
  const char *q = parse_i32 (t->start, t->end, &a);

  if (q == NULL)
    return FALSE;
  if (q == t->end)
    {
      *pid = -1;
      *tid = a;
      return TRUE;
    }
  if (*q != '/' || parse_i32 (q + 1, t->end, &b) != t->end)
    return FALSE;
  *pid = a;
  *tid = b;
  return TRUE;
}

static gboolean
is_time_token (const Token *t,
               gint64      *ns)
{
  return t->end - t->start >= 3 && memchr (t->start, '.', t->end - t->start) != NULL &&
         parse_timestamp (t->start, t->end, ns) == t->end;
}

/* "SECONDS.FRACTION:" whatever its size (parse_timestamp() refuses times
 * beyond WS_TIME_MAX). */
static gboolean
looks_like_timestamp (const Token *t)
{
  const char *s = t->start, *d = s;

  while (s < t->end && g_ascii_isdigit (*s))
    s++;
  if (s == d || s >= t->end || *s != '.')
    return FALSE;
  d = ++s;
  while (s < t->end && g_ascii_isdigit (*s))
    s++;
  return s > d && s + 1 == t->end && *s == ':';
}

/* An event name: anything ending in ':' but a timestamp. */
static gboolean
is_event_token (const Token *t)
{
  return t->end - t->start >= 2 && t->end[-1] == ':' && !looks_like_timestamp (t);
}

static gboolean
is_number_token (const Token *t,
                 guint64     *value)
{
  return parse_u64 (t->start, t->end, value) == t->end;
}

/* Splits at spaces up to @max tokens; returns how many. */
static guint
tokenize (const char *line,
          const char *end,
          Token      *tokens,
          guint       max)
{
  const char *s = line;
  guint n = 0;

  while (n < max)
    {
      s = skip_spaces (s, end);
      if (s >= end)
        break;
      tokens[n].start = s;
      while (s < end && *s != ' ')
        s++;
      tokens[n].end = s;
      n++;
    }
  return n;
}

/* The id before token @anchor, skipping a [CPU] token; its index or -1. */
static gint
find_id_before (const Token *tokens,
                guint        anchor,
                Header      *h)
{
  gint i = (gint) anchor - 1;

  if (i >= 0 && is_cpu_token (&tokens[i], &h->cpu))
    {
      h->has_cpu = TRUE;
      i--;
    }
  if (i >= 0 && is_id_token (&tokens[i], &h->pid, &h->tid))
    return i;
  return -1;
}

/* Layouts without time: "COMM ID [CPU] [PERIOD] EVENT:".  The first name
 * ending in ':' after an id is the event.  A number just before it is the
 * period only after a [CPU] or a "PID/TID" id: "COMM 12 4945 cycles:" is
 * comm "COMM 12", tid 4945. */
static gint
find_untimed_id (const Token *tokens,
                 guint        n,
                 guint       *event,
                 Header      *h)
{
  for (guint e = 1; e < n; e++)
    {
      guint j = e;
      guint64 period = 0;
      gint id;

      if (!is_event_token (&tokens[e]))
        continue;
      if (j >= 2 && is_number_token (&tokens[j - 1], &period))
        {
          gint32 pid, tid;
          guint cpu;

          if (is_cpu_token (&tokens[j - 2], &cpu) ||
              (is_id_token (&tokens[j - 2], &pid, &tid) && pid >= 0))
            {
              h->period = period;
              h->has_period = TRUE;
              j--;
            }
        }
      if ((id = find_id_before (tokens, j, h)) >= 0)
        {
          *event = e;
          return id;
        }
      h->has_cpu = h->has_period = FALSE;
    }
  return -1;
}

static gint
find_timed_id (const Token *tokens,
               guint        n,
               guint       *time_token,
               Header      *h)
{
  for (guint t = 1; t < n; t++)
    {
      gint id;

      if (!is_time_token (&tokens[t], &h->time))
        continue;
      if ((id = find_id_before (tokens, t, h)) >= 0)
        {
          *time_token = t;
          return id;
        }
      h->has_cpu = FALSE;
    }
  return -1;
}

/* After the anchor: "[PERIOD] EVENT: REST" or "PERF_RECORD_…". */
static gboolean
parse_event_part (const Token *tokens,
                  guint        n,
                  guint        k,
                  const char  *end,
                  Header      *h)
{
  if (k < n && tokens[k].end - tokens[k].start >= 12 && memcmp (tokens[k].start, "PERF_RECORD_", 12) == 0)
    {
      h->task_line = TRUE;
      h->rest = tokens[k].start;
      return TRUE;
    }
  if (k + 1 < n && is_number_token (&tokens[k], &h->period) && is_event_token (&tokens[k + 1]))
    {
      h->has_period = TRUE;
      k++;
    }
  if (k >= n || !is_event_token (&tokens[k]))
    return FALSE;
  h->event = tokens[k].start;
  h->event_len = tokens[k].end - tokens[k].start - 1;
  h->rest = tokens[k].end < end ? tokens[k].end + 1 : end;
  return TRUE;
}

/**
 * ws_perf_parse_header:
 *
 * Returns: whether @line is an event header (or a PERF_RECORD_ task line,
 *   h->task_line); @h then holds its fields, with has_time/has_cpu/
 *   has_period saying which the layout had.
 */
gboolean
ws_perf_parse_header (const char *line,
                      const char *end,
                      Header     *h)
{
  Token tokens[MAX_TOKENS];
  guint n = tokenize (line, end, tokens, MAX_TOKENS), anchor = 0, next;
  gint id;

  memset (h, 0, sizeof *h);
  h->pid = h->tid = -1;
  if (n < 2)
    return FALSE;

  if ((id = find_timed_id (tokens, n, &anchor, h)) >= 0)
    {
      h->has_time = TRUE;
      next = anchor + 1;
    }
  else
    {
      memset (h, 0, sizeof *h);
      if ((id = find_untimed_id (tokens, n, &anchor, h)) < 0)
        {
          /* "COMM ID PERF_RECORD_…" without time. */
          for (guint k = 1; k < n && id < 0; k++)
            if (tokens[k].end - tokens[k].start >= 12 && memcmp (tokens[k].start, "PERF_RECORD_", 12) == 0 &&
                (id = find_id_before (tokens, k, h)) >= 0)
              anchor = k;
          if (id < 0)
            return FALSE;
        }
      next = anchor;
    }

  /* An event name ending the token list may still have fields past
   * MAX_TOKENS; only the header's own tokens matter. */
  if (!parse_event_part (tokens, n, next, end, h))
    return FALSE;

  h->comm = tokens[0].start;
  h->comm_len = id > 0 ? (gsize) (tokens[id - 1].end - tokens[0].start) : 0;
  return TRUE;
}

/* For the error message: which part of "PID/TID [cpu] time: event:" is
 * missing, or %NULL if the line looks nothing like a header. */
const char *
ws_perf_describe_bad_header (const char *line,
                             const char *end)
{
  Token tokens[MAX_TOKENS];
  guint n = tokenize (line, end, tokens, MAX_TOKENS);
  gboolean have_time = FALSE, have_tid = FALSE, have_cpu = FALSE, have_event = FALSE;
  gboolean have_big_time = FALSE;

  for (guint i = 0; i < n; i++)
    {
      gint64 t;
      gint32 pid, tid;
      guint cpu;

      if (is_time_token (&tokens[i], &t))
        have_time = TRUE;
      else if (looks_like_timestamp (&tokens[i]))
        have_big_time = TRUE;
      else if (is_id_token (&tokens[i], &pid, &tid))
        have_tid = TRUE;
      else if (is_cpu_token (&tokens[i], &cpu))
        have_cpu = TRUE;
      else if (i > 0 && is_event_token (&tokens[i]))
        have_event = TRUE;
    }

  if (!have_time && !have_tid && !have_cpu && !have_big_time)
    return NULL;
  if (have_big_time)
    return _("the event timestamp is out of range (at most 2305843009 seconds)");
  if (!have_tid)
    return _("the event header has no PID/TID field");
  if (!have_event)
    return _("the event header has no event name (“event:”)");
  return _("the event header fields are not in the order comm PID/TID [cpu] seconds: period event:");
}
