/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Recognising a `perf script` event header line, whatever fields the
 * producer chose to print.
 */
#include "config.h"

#include <glib/gi18n-lib.h>

#include "ws-perf-private.h"

/*
 * Finds the "PID/TID  [cpu]  seconds:" group.  comm may hold spaces (and
 * even digits or slashes), so the group is searched for, not split out:
 * the first '[' with digits and ']' preceded by a PID/TID (or TID) token and
 * followed by a timestamp.
 */
gboolean
ws_perf_parse_header (const char *line,
              const char *end,
              Header     *h)
{
  const char *s = line;

  while ((s = memchr (s, '[', end - s)) != NULL)
    {
      const char *open = s, *q, *tok, *tok_end;
      guint64 cpu;
      gint32 a, b = -1;

      s++;
      if ((q = parse_u64 (open + 1, end, &cpu)) == NULL || q >= end || *q != ']' || cpu > G_MAXUINT16)
        continue;
      q = skip_spaces (q + 1, end);
      if (q == open + 1 || (q = parse_timestamp (q, end, &h->time)) == NULL)
        continue;

      /* Backwards: spaces, then "PID/TID" or "TID", then a space or the start. */
      tok_end = open;
      while (tok_end > line && tok_end[-1] == ' ')
        tok_end--;
      if (tok_end == open)
        continue;
      tok = tok_end;
      while (tok > line && (g_ascii_isdigit (tok[-1]) || tok[-1] == '/' || tok[-1] == '-'))
        tok--;
      if (tok == tok_end || (tok > line && tok[-1] != ' '))
        continue;
      {
        const char *t = parse_i32 (tok, tok_end, &a);
        if (t == NULL)
          continue;
        if (t < tok_end)
          {
            if (*t != '/' || parse_i32 (t + 1, tok_end, &b) != tok_end)
              continue;
          }
      }

      h->pid = b >= 0 ? a : -1;
      h->tid = b >= 0 ? b : a;
      h->cpu = (guint) cpu;
      h->rest = q;
      h->comm = line;
      h->comm_len = tok > line ? (gsize) (tok - line) : 0;
      while (h->comm_len > 0 && line[h->comm_len - 1] == ' ')
        h->comm_len--;
      return TRUE;
    }

  return FALSE;
}

/* "SECONDS.FRACTION:" whatever its size (parse_timestamp() refuses times
 * beyond WS_TIME_MAX). */
static gboolean
looks_like_timestamp (const char *s,
                      const char *end)
{
  const char *d = s;

  while (s < end && g_ascii_isdigit (*s))
    s++;
  if (s == d || s >= end || *s != '.')
    return FALSE;
  d = ++s;
  while (s < end && g_ascii_isdigit (*s))
    s++;
  return s > d && s < end && *s == ':';
}

/* For the error message: which part of "PID/TID [cpu] time:" is missing. */
const char *
ws_perf_describe_bad_header (const char *line,
                     const char *end)
{
  gboolean have_cpu = FALSE, have_time = FALSE, have_tid = FALSE, have_big_time = FALSE;

  for (const char *s = line; s < end; s++)
    {
      guint64 v;
      gint64 t;
      const char *q;

      if (*s == '[' && (q = parse_u64 (s + 1, end, &v)) != NULL && q < end && *q == ']')
        have_cpu = TRUE;
      if ((s == line || s[-1] == ' ') && g_ascii_isdigit (*s))
        {
          if (parse_timestamp (s, end, &t) != NULL && memchr (s, '.', end - s) != NULL)
            have_time = TRUE;
          else if (looks_like_timestamp (s, end))
            have_big_time = TRUE;
          if ((q = parse_u64 (s, end, &v)) != NULL && q < end && *q == '/')
            have_tid = TRUE;
        }
    }

  if (!have_cpu && !have_time && !have_tid)
    return NULL;
  if (!have_cpu)
    return _("the event header has no [cpu] field");
  if (!have_time && have_big_time)
    return _("the event timestamp is out of range (at most 2305843009 seconds)");
  if (!have_time)
    return _("the event header has no timestamp (seconds:)");
  if (!have_tid)
    return _("the event header has no PID/TID field");
  return _("the event header fields are not in the order comm PID/TID [cpu] seconds:");
}

