/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Finding the events that hold mined patterns, off the main thread, for
 * the Mining page's "Show Events".
 */
#include "config.h"

#include "ws-miner.h"
#include "ws-pattern-events.h"

struct _WsPatternEventsQuery {
  GPtrArray *traces;     /* WsTrace */
  WsStackDb *db;
  GPtrArray *patterns;   /* WsFrameId arrays (GArray) in the db's table */
  char      *label;
  guint      prefer;     /* the trace to show if it has matches */
};

/* A frame as "function\x1fmodule": how frames of different tables (each
 * trace's, a run's) are matched. */
char *
ws_pattern_frame_key (const WsFrame *frame)
{
  return g_strconcat (frame->function ? frame->function : "", "\x1f", frame->module ? frame->module : "", NULL);
}

/**
 * ws_pattern_events_query_new:
 * @traces: (element-type WsTrace): the traces mined
 * @db: the run's stack database (its table holds the patterns' frames)
 * @label: what the search is called ("pattern 3.2")
 * @prefer: the trace to show if it has matches, or G_MAXUINT
 */
WsPatternEventsQuery *
ws_pattern_events_query_new (GPtrArray  *traces,
                             WsStackDb  *db,
                             const char *label,
                             guint       prefer)
{
  WsPatternEventsQuery *query = g_new0 (WsPatternEventsQuery, 1);

  query->traces = g_ptr_array_ref (traces);
  query->db = g_object_ref (db);
  query->patterns = g_ptr_array_new_with_free_func ((GDestroyNotify) g_array_unref);
  query->label = g_strdup (label);
  query->prefer = prefer;
  return query;
}

void
ws_pattern_events_query_add (WsPatternEventsQuery *query,
                             const WsFrameId      *frames,
                             guint                 n_frames)
{
  GArray *a = g_array_sized_new (FALSE, FALSE, sizeof (WsFrameId), n_frames);

  g_array_append_vals (a, frames, n_frames);
  g_ptr_array_add (query->patterns, a);
}

void
ws_pattern_events_query_free (WsPatternEventsQuery *query)
{
  g_ptr_array_unref (query->traces);
  g_object_unref (query->db);
  g_ptr_array_unref (query->patterns);
  g_free (query->label);
  g_free (query);
}

void
ws_pattern_events_free (WsPatternEvents *events)
{
  g_clear_object (&events->search);
  g_free (events);
}

/* The patterns' frames in @table, by name, marking them in @frame_match;
 * a pattern with a frame the trace never saw is left out (no stack of the
 * trace can hold it). */
static GPtrArray *
map_patterns (WsPatternEventsQuery *query,
              WsStackTable         *table,
              guint8               *frame_match)
{
  WsStackTable *source = ws_stack_db_get_stack_table (query->db);
  g_autoptr(GHashTable) ids = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  GPtrArray *mapped = g_ptr_array_new_with_free_func ((GDestroyNotify) g_array_unref);

  for (guint f = 0; f < ws_stack_table_get_n_frames (table); f++)
    g_hash_table_insert (ids, ws_pattern_frame_key (ws_stack_table_get_frame (table, f)), GUINT_TO_POINTER (f + 1));
  for (guint p = 0; p < query->patterns->len; p++)
    {
      GArray *frames = g_ptr_array_index (query->patterns, p);
      GArray *m = g_array_sized_new (FALSE, FALSE, sizeof (WsFrameId), frames->len);
      gboolean complete = TRUE;

      for (guint k = 0; k < frames->len && complete; k++)
        {
          g_autofree char *key = ws_pattern_frame_key (ws_stack_table_get_frame (source, g_array_index (frames, WsFrameId, k)));
          guint id = GPOINTER_TO_UINT (g_hash_table_lookup (ids, key));
          WsFrameId fid = id - 1;

          complete = id != 0;
          if (complete)
            {
              g_array_append_val (m, fid);
              frame_match[fid] = 1;
            }
        }
      if (complete)
        g_ptr_array_add (mapped, m);
      else
        g_array_unref (m);
    }
  return mapped;
}

/* The matches of @trace: events whose stack contains one of the patterns
 * as a subsequence. */
static WsStackSearch *
match_trace (WsPatternEventsQuery  *query,
             WsTrace               *trace,
             GCancellable          *cancellable,
             GError               **error)
{
  WsStackTable *table = ws_trace_get_stack_table (trace);
  guint n_stacks = ws_stack_table_get_n_stacks (table);
  g_autofree guint8 *stack_match = g_new0 (guint8, MAX (n_stacks, 1));
  g_autofree guint8 *frame_match = g_new0 (guint8, MAX (ws_stack_table_get_n_frames (table), 1));
  g_autoptr(GPtrArray) mapped = map_patterns (query, table, frame_match);

  for (guint s = 1; s < n_stacks && mapped->len > 0; s++)
    {
      guint n;
      const WsFrameId *frames = ws_stack_table_get_stack (table, s, &n);

      for (guint p = 0; p < mapped->len && !stack_match[s]; p++)
        {
          GArray *m = g_ptr_array_index (mapped, p);
          stack_match[s] = ws_frames_is_subsequence ((const WsFrameId *) m->data, m->len, frames, n);
        }
      if ((s & 0xfff) == 0 && g_cancellable_set_error_if_cancelled (cancellable, error))
        return NULL;
    }
  return ws_stack_search_new_from_stacks (trace, query->label, stack_match, frame_match, cancellable, error);
}

/* A GTaskThreadFunc: @task_data is a WsPatternEventsQuery; returns a
 * WsPatternEvents.  The preferred trace is shown if it has matches, else
 * the first that has. */
void
ws_pattern_events_run_in_thread (GTask        *task,
                                 gpointer      source_object,
                                 gpointer      task_data,
                                 GCancellable *cancellable)
{
  WsPatternEventsQuery *query = task_data;
  g_autoptr(WsPatternEvents) result = g_new0 (WsPatternEvents, 1);

  result->stream = G_MAXUINT;
  for (guint s = 0; s < query->traces->len; s++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(WsStackSearch) search = match_trace (query, g_ptr_array_index (query->traces, s), cancellable, &error);
      guint n;

      if (search == NULL)
        {
          g_task_return_error (task, g_steal_pointer (&error));
          return;
        }
      n = ws_stack_search_get_n_matches (search);
      result->n_matches += n;
      result->n_traces += n > 0;
      if (n > 0 && (result->search == NULL || s == query->prefer))
        {
          g_set_object (&result->search, search);
          result->stream = s;
        }
    }
  g_task_return_pointer (task, g_steal_pointer (&result), (GDestroyNotify) ws_pattern_events_free);
}
