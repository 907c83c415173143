/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The regular expression runs once per distinct frame, not once per
 * event: a trace has millions of events but only thousands of frames, and
 * stacks are interned, so a match is a bitmap lookup per event.
 */
#include "config.h"

#include <glib/gi18n-lib.h>

#include "ws-error.h"
#include "ws-stack-search.h"

struct _WsStackSearch
{
  GObject   parent_instance;

  WsTrace  *trace;
  char     *pattern;
  guint8   *frame_match;     /* per frame id: 1 = matches */
  guint     n_frames;
  guint     n_matching_frames;
  guint32  *matches;         /* all matching events, grouped by thread */
  guint    *offsets;         /* n_threads + 1 */
  guint     n_matches;
  guint8   *event_bits;      /* bitmap over events */
  guint8   *stack_match;     /* per stack id: 0 not looked at, 1 no, 2 yes */
  guint     n_stacks;
};

G_DEFINE_FINAL_TYPE (WsStackSearch, ws_stack_search, G_TYPE_OBJECT)

static void
ws_stack_search_finalize (GObject *object)
{
  WsStackSearch *self = WS_STACK_SEARCH (object);

  g_clear_object (&self->trace);
  g_free (self->pattern);
  g_free (self->frame_match);
  g_free (self->matches);
  g_free (self->offsets);
  g_free (self->event_bits);
  g_free (self->stack_match);

  G_OBJECT_CLASS (ws_stack_search_parent_class)->finalize (object);
}

static void
ws_stack_search_class_init (WsStackSearchClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = ws_stack_search_finalize;
}

static void
ws_stack_search_init (WsStackSearch *self)
{
}

/* Marks the events whose stack matches: @known gives the answer per stack
 * id, else a stack matches when one of its frames does. */
static gboolean
find_events (WsStackSearch  *self,
             const guint8   *known,
             GCancellable   *cancellable,
             GError        **error)
{
  guint8 *stack_match;
  WsStackTable *stacks = ws_trace_get_stack_table (self->trace);
  const WsEvent *events;
  guint n_stacks, n_events, n_threads;
  g_autofree guint *fill = NULL;

  if (g_cancellable_set_error_if_cancelled (cancellable, error))
    return FALSE;

  /* 0 = not looked at yet, 1 = no, 2 = yes: only stacks that events use
   * are ever examined. */
  n_stacks = ws_stack_table_get_n_stacks (stacks);
  stack_match = self->stack_match = g_new0 (guint8, MAX (n_stacks, 1));
  self->n_stacks = n_stacks;
  if (known != NULL)
    for (guint s = 0; s < n_stacks; s++)
      stack_match[s] = known[s] ? 2 : 1;
  events = ws_trace_get_events (self->trace);
  n_events = ws_trace_get_n_events (self->trace);
  n_threads = ws_trace_get_n_threads (self->trace);
  self->event_bits = g_new0 (guint8, n_events / 8 + 1);
  self->offsets = g_new0 (guint, n_threads + 1);

  for (guint i = 0; i < n_events; i++)
    {
      WsStackId stack = events[i].stack;

      if (stack == WS_STACK_EMPTY || stack >= n_stacks)
        continue;
      if (stack_match[stack] == 0)
        {
          guint n;
          const WsFrameId *frames = ws_stack_table_get_stack (stacks, stack, &n);

          stack_match[stack] = 1;
          for (guint k = 0; k < n; k++)
            if (frames[k] < self->n_frames && self->frame_match[frames[k]])
              {
                stack_match[stack] = 2;
                break;
              }
        }
      if (stack_match[stack] == 2)
        {
          self->event_bits[i / 8] |= 1 << (i % 8);
          self->offsets[events[i].thread + 1]++;
          self->n_matches++;
        }
      if ((i & 0xfffff) == 0 && g_cancellable_set_error_if_cancelled (cancellable, error))
        return FALSE;
    }

  for (guint t = 0; t < n_threads; t++)
    self->offsets[t + 1] += self->offsets[t];
  self->matches = g_new (guint32, MAX (self->n_matches, 1));
  fill = g_memdup2 (self->offsets, sizeof (guint) * (n_threads + 1));
  for (guint i = 0; i < n_events; i++)
    if (self->event_bits[i / 8] & (1 << (i % 8)))
      self->matches[fill[events[i].thread]++] = i;

  return TRUE;
}

/**
 * ws_stack_search_new:
 * @pattern: a Perl regular expression, matched case-insensitively and
 *   unanchored against each frame's function and module
 * @cancellable: (nullable):
 *
 * Returns: (transfer full): the matches, or %NULL with @error set (an
 *   invalid expression is %WS_ERROR_INVALID, with GRegex's explanation)
 */
WsStackSearch *
ws_stack_search_new (WsTrace       *trace,
                     const char    *pattern,
                     GCancellable  *cancellable,
                     GError       **error)
{
  g_autoptr(WsStackSearch) self = NULL;
  g_autoptr(GRegex) regex = NULL;
  g_autoptr(GError) regex_error = NULL;
  WsStackTable *stacks;

  g_return_val_if_fail (WS_IS_TRACE (trace), NULL);
  g_return_val_if_fail (pattern != NULL, NULL);

  regex = g_regex_new (pattern, G_REGEX_CASELESS | G_REGEX_OPTIMIZE, 0, &regex_error);
  if (regex == NULL)
    {
      g_set_error (error, WS_ERROR, WS_ERROR_INVALID,
                   _("Invalid search expression “%s”: %s"), pattern, regex_error->message);
      return NULL;
    }

  self = g_object_new (WS_TYPE_STACK_SEARCH, NULL);
  self->trace = g_object_ref (trace);
  self->pattern = g_strdup (pattern);

  stacks = ws_trace_get_stack_table (trace);
  self->n_frames = ws_stack_table_get_n_frames (stacks);
  self->frame_match = g_new0 (guint8, MAX (self->n_frames, 1));
  for (guint f = 0; f < self->n_frames; f++)
    {
      const WsFrame *frame = ws_stack_table_get_frame (stacks, f);

      if ((frame->function && g_regex_match (regex, frame->function, 0, NULL)) ||
          (frame->module && g_regex_match (regex, frame->module, 0, NULL)))
        {
          self->frame_match[f] = 1;
          self->n_matching_frames++;
        }
    }

  if (!find_events (self, NULL, cancellable, error))
    return NULL;
  return g_steal_pointer (&self);
}

/**
 * ws_stack_search_new_from_stacks:
 * @description: what the matches are, shown where the search text would
 *   be (ws_stack_search_get_pattern())
 * @stack_match: (array): per stack id of @trace's table, non-zero for a
 *   stack whose events match
 * @frame_match: (array) (nullable): per frame id, non-zero for frames to
 *   show as matching (ws_stack_search_matches_frame())
 * @cancellable: (nullable):
 *
 * Matches decided per stack by the caller, e.g. the stacks that contain a
 * mined pattern as a subsequence, with the same per-thread and Next /
 * Previous machinery as a regular-expression search.
 *
 * Returns: (transfer full): the matches, or %NULL if cancelled
 */
WsStackSearch *
ws_stack_search_new_from_stacks (WsTrace       *trace,
                                 const char    *description,
                                 const guint8  *stack_match,
                                 const guint8  *frame_match,
                                 GCancellable  *cancellable,
                                 GError       **error)
{
  g_autoptr(WsStackSearch) self = NULL;

  g_return_val_if_fail (WS_IS_TRACE (trace), NULL);
  g_return_val_if_fail (description != NULL, NULL);
  g_return_val_if_fail (stack_match != NULL, NULL);

  self = g_object_new (WS_TYPE_STACK_SEARCH, NULL);
  self->trace = g_object_ref (trace);
  self->pattern = g_strdup (description);
  self->n_frames = ws_stack_table_get_n_frames (ws_trace_get_stack_table (trace));
  self->frame_match = g_new0 (guint8, MAX (self->n_frames, 1));
  if (frame_match != NULL)
    for (guint f = 0; f < self->n_frames; f++)
      if (frame_match[f])
        {
          self->frame_match[f] = 1;
          self->n_matching_frames++;
        }
  if (!find_events (self, stack_match, cancellable, error))
    return NULL;
  return g_steal_pointer (&self);
}

/**
 * ws_stack_search_new_for_events:
 * @description: what the matches are, shown where the search text would
 *   be (ws_stack_search_get_pattern())
 * @events: (array length=n_events): event indices of @trace, any order,
 *   duplicates allowed; out-of-range ones are ignored
 *
 * Matches given event by event, e.g. the waits of an inspector finding,
 * with the same per-thread and Next / Previous machinery as a
 * regular-expression search.  No frame matches.
 *
 * Returns: (transfer full): the matches
 */
WsStackSearch *
ws_stack_search_new_for_events (WsTrace       *trace,
                                const char    *description,
                                const guint32 *events,
                                guint          n_events)
{
  WsStackSearch *self;
  const WsEvent *all;
  guint n_all, n_threads;
  g_autofree guint *fill = NULL;

  g_return_val_if_fail (WS_IS_TRACE (trace), NULL);
  g_return_val_if_fail (description != NULL, NULL);
  g_return_val_if_fail (events != NULL || n_events == 0, NULL);

  self = g_object_new (WS_TYPE_STACK_SEARCH, NULL);
  self->trace = g_object_ref (trace);
  self->pattern = g_strdup (description);
  self->n_frames = ws_stack_table_get_n_frames (ws_trace_get_stack_table (trace));
  self->frame_match = g_new0 (guint8, MAX (self->n_frames, 1));

  all = ws_trace_get_events (trace);
  n_all = ws_trace_get_n_events (trace);
  n_threads = ws_trace_get_n_threads (trace);
  self->event_bits = g_new0 (guint8, n_all / 8 + 1);
  self->offsets = g_new0 (guint, n_threads + 1);
  for (guint i = 0; i < n_events; i++)
    {
      guint32 e = events[i];

      if (e >= n_all || (self->event_bits[e / 8] & (1 << (e % 8))))
        continue;
      self->event_bits[e / 8] |= 1 << (e % 8);
      self->offsets[all[e].thread + 1]++;
      self->n_matches++;
    }
  for (guint t = 0; t < n_threads; t++)
    self->offsets[t + 1] += self->offsets[t];
  self->matches = g_new (guint32, MAX (self->n_matches, 1));
  fill = g_memdup2 (self->offsets, sizeof (guint) * (n_threads + 1));
  /* Walking the bitmap keeps each thread's matches in time order. */
  for (guint byte = 0; byte < n_all / 8 + 1; byte++)
    if (self->event_bits[byte] != 0)
      for (guint e = byte * 8; e < MIN (byte * 8 + 8, n_all); e++)
        if (self->event_bits[byte] & (1 << (e % 8)))
          self->matches[fill[all[e].thread]++] = e;
  return self;
}

const char *
ws_stack_search_get_pattern (WsStackSearch *self)
{
  g_return_val_if_fail (WS_IS_STACK_SEARCH (self), NULL);
  return self->pattern;
}

WsTrace *
ws_stack_search_get_trace (WsStackSearch *self)
{
  g_return_val_if_fail (WS_IS_STACK_SEARCH (self), NULL);
  return self->trace;
}

guint
ws_stack_search_get_n_matches (WsStackSearch *self)
{
  g_return_val_if_fail (WS_IS_STACK_SEARCH (self), 0);
  return self->n_matches;
}

/* The number of distinct frames that match. */
guint
ws_stack_search_get_n_frames (WsStackSearch *self)
{
  g_return_val_if_fail (WS_IS_STACK_SEARCH (self), 0);
  return self->n_matching_frames;
}

/**
 * ws_stack_search_get_thread_matches:
 * @n_matches: (out):
 *
 * Returns: (transfer none) (array length=n_matches): the matching events
 *   of @thread, in time order
 */
const guint32 *
ws_stack_search_get_thread_matches (WsStackSearch *self,
                                    guint          thread,
                                    guint         *n_matches)
{
  g_return_val_if_fail (WS_IS_STACK_SEARCH (self), NULL);
  g_return_val_if_fail (n_matches != NULL, NULL);

  if (thread >= ws_trace_get_n_threads (self->trace))
    {
      *n_matches = 0;
      return NULL;
    }
  *n_matches = self->offsets[thread + 1] - self->offsets[thread];
  return self->matches + self->offsets[thread];
}

gboolean
ws_stack_search_matches_event (WsStackSearch *self,
                               guint          event)
{
  g_return_val_if_fail (WS_IS_STACK_SEARCH (self), FALSE);
  if (event >= ws_trace_get_n_events (self->trace))
    return FALSE;
  return (self->event_bits[event / 8] & (1 << (event % 8))) != 0;
}

gboolean
ws_stack_search_matches_frame (WsStackSearch *self,
                               WsFrameId      frame)
{
  g_return_val_if_fail (WS_IS_STACK_SEARCH (self), FALSE);
  return frame < self->n_frames && self->frame_match[frame];
}

/**
 * ws_stack_search_matches_stack:
 *
 * Whether events with @stack match: for a regular-expression search, one
 * of its frames matches; for ws_stack_search_new_from_stacks(), what the
 * caller decided for it.
 */
gboolean
ws_stack_search_matches_stack (WsStackSearch *self,
                               WsStackId      stack)
{
  const WsFrameId *frames;
  guint n;

  g_return_val_if_fail (WS_IS_STACK_SEARCH (self), FALSE);

  if (stack == WS_STACK_EMPTY)
    return FALSE;
  if (stack < self->n_stacks && self->stack_match[stack] != 0)
    return self->stack_match[stack] == 2;
  /* A stack no event of the trace uses: decided by its frames, without
   * caching, so that the search stays safe to share between threads. */
  frames = ws_stack_table_get_stack (ws_trace_get_stack_table (self->trace), stack, &n);
  for (guint k = 0; k < n; k++)
    if (frames[k] < self->n_frames && self->frame_match[frames[k]])
      return TRUE;
  return FALSE;
}

/**
 * ws_stack_search_next:
 * @event: the current event, or %WS_NONE to start from an end
 * @forward: %TRUE for the next match in time order, %FALSE for the previous
 *
 * Returns: the next (or previous) matching event, wrapping around at the
 *   ends of the trace, or %WS_NONE if nothing matches
 */
guint
ws_stack_search_next (WsStackSearch *self,
                      guint          event,
                      gboolean       forward)
{
  guint n;

  g_return_val_if_fail (WS_IS_STACK_SEARCH (self), WS_NONE);

  if (self->n_matches == 0)
    return WS_NONE;

  n = ws_trace_get_n_events (self->trace);
  if (event == WS_NONE || event >= n)
    event = forward ? n - 1 : 0;

  /* Event indices are in time order, so the bitmap is too; a byte at a
   * time skips the long stretches without matches. */
  for (guint step = 0; step < n; step++)
    {
      if (forward)
        event = event + 1 < n ? event + 1 : 0;
      else
        event = event > 0 ? event - 1 : n - 1;

      if (self->event_bits[event / 8] == 0)
        {
          /* Jump to the edge of this empty byte. */
          event = forward ? (event | 7) : (event & ~7u);
          if (event >= n)
            event = n - 1;
          continue;
        }
      if (self->event_bits[event / 8] & (1 << (event % 8)))
        return event;
    }
  return WS_NONE;
}

/**
 * ws_stack_search_get_rank:
 *
 * Returns: how many matches come before @event in time order (so a
 *   matching event is match number rank + 1)
 */
guint
ws_stack_search_get_rank (WsStackSearch *self,
                          guint          event)
{
  guint n, rank = 0;

  g_return_val_if_fail (WS_IS_STACK_SEARCH (self), 0);

  n = MIN (event, ws_trace_get_n_events (self->trace));
  for (guint byte = 0; byte < n / 8; byte++)
    rank += __builtin_popcount (self->event_bits[byte]);
  for (guint i = n & ~7u; i < n; i++)
    if (self->event_bits[i / 8] & (1 << (i % 8)))
      rank++;
  return rank;
}
