/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The pivot table: where a selection's time goes, grouped by any ordered
 * combination of process, thread, state, readier and function (Windows
 * Performance Analyzer's "CPU Usage (Precise)" for run and wait time).
 *
 * The time is the threads' state spans — the timeline's own
 * (ws_thread_state_spans(), the one definition of what state a thread is
 * in) — clipped to the window, in integer nanoseconds.  Each span goes
 * down one path of the tree, adding its clipped length and one to the
 * count of every row on the way, so each row is exactly the sum of its
 * children and the root exactly the time of the threads in scope that
 * the trace accounts for: no rounding, no share lost.
 *
 * A wait and the ready latency after it (woken, no CPU yet) carry the
 * wait's readier and functions; a running span and a preemption have
 * none ("Not waiting").
 */
#include "config.h"

#include <glib/gi18n-lib.h>
#include <string.h>

#include "ws-error.h"
#include "ws-pivot.h"
#include "ws-thread-state.h"
#include "ws-wait-signature.h"
#include "ws-wake-words.h"

static const struct {
  const char *word;
  const char *label;
} columns[WS_N_PIVOT_COLUMNS] = {
  [WS_PIVOT_PROCESS]          = { "process",          N_("Process") },
  [WS_PIVOT_THREAD]           = { "thread",           N_("Thread") },
  [WS_PIVOT_STATE]            = { "state",            N_("State") },
  [WS_PIVOT_READIER_PROCESS]  = { "readier-process",  N_("Readier process") },
  [WS_PIVOT_READIER_THREAD]   = { "readier-thread",   N_("Readier thread") },
  [WS_PIVOT_WAITING_FUNCTION] = { "waiting-function", N_("Waiting function") },
  [WS_PIVOT_READIER_FUNCTION] = { "readier-function", N_("Readier function") },
};

/* Keys that are not an index: what a column says when it has no process,
 * thread or frame to name. */
enum {
  KEY_NOT_WAITING  = -1,   /* a running span or a preemption */
  KEY_INTERRUPT    = -2,   /* woken from interrupt context */
  KEY_DISK_DONE    = -3,   /* a D wait woken from interrupt context */
  KEY_NO_WAKEUP    = -4,   /* no wake-up recorded */
  KEY_STILL_WAITING = -5,  /* still waiting when the recording ended */
  KEY_NO_STACK     = -6,   /* the stack was not recorded */
};

const char *
ws_pivot_column_to_string (WsPivotColumn column)
{
  g_return_val_if_fail (column < WS_N_PIVOT_COLUMNS, NULL);
  return columns[column].word;
}

gboolean
ws_pivot_column_from_string (const char    *text,
                             WsPivotColumn *column)
{
  for (guint c = 0; c < WS_N_PIVOT_COLUMNS; c++)
    if (g_str_equal (text, columns[c].word))
      {
        *column = c;
        return TRUE;
      }
  return FALSE;
}

const char *
ws_pivot_column_get_label (WsPivotColumn column)
{
  g_return_val_if_fail (column < WS_N_PIVOT_COLUMNS, NULL);
  return _(columns[column].label);
}

/**
 * ws_pivot_parse_columns:
 * @text: column words separated by commas ("process,state")
 *
 * Returns: whether every word names a column, each at most once
 */
gboolean
ws_pivot_parse_columns (const char    *text,
                        WsPivotColumn *out,
                        guint         *n_out,
                        GError       **error)
{
  g_auto(GStrv) words = g_strsplit (text, ",", -1);
  gboolean seen[WS_N_PIVOT_COLUMNS] = { FALSE };
  guint n = 0;

  for (guint i = 0; words[i] != NULL; i++)
    {
      WsPivotColumn c;
      const char *word = g_strstrip (words[i]);

      if (*word == '\0' && words[1] == NULL)
        break;
      if (!ws_pivot_column_from_string (word, &c))
        {
          g_autofree char *shown = g_utf8_make_valid (word, -1);
          /* Translators: the list of words is not translated */
          g_set_error (error, WS_ERROR, WS_ERROR_INVALID,
                       _("unknown column “%s” (process, thread, state, readier-process, readier-thread, "
                         "waiting-function, readier-function)"), shown);
          return FALSE;
        }
      if (seen[c])
        {
          g_set_error (error, WS_ERROR, WS_ERROR_INVALID, _("column “%s” is given twice"), word);  /* a known word: valid */
          return FALSE;
        }
      seen[c] = TRUE;
      out[n++] = c;
    }
  *n_out = n;
  return TRUE;
}

static WsPivotRow *
row_new (WsPivotColumn column,
         gint64        id,
         WsPivotRow   *parent)
{
  WsPivotRow *row = g_new0 (WsPivotRow, 1);

  row->column = column;
  row->id = id;
  row->parent = parent;
  row->first_thread = WS_NONE;
  row->first_event = WS_NONE;
  row->first_time = G_MAXINT64;
  return row;
}

static void
row_free (gpointer data)
{
  WsPivotRow *row = data;

  if (row == NULL)
    return;
  g_clear_pointer (&row->children, g_ptr_array_unref);
  g_clear_pointer (&row->index, g_hash_table_unref);
  g_free (row->key);
  g_free (row->label);
  g_free (row);
}

void
ws_pivot_free (WsPivot *pivot)
{
  if (pivot == NULL)
    return;
  row_free (pivot->root);
  g_clear_object (&pivot->trace);
  g_free (pivot);
}

/* What a run keeps while it walks the spans.  Functions are grouped by
 * name (one name may have several frames: other modules, inlined copies),
 * numbered here: the trace's stack table is shared and never written. */
typedef struct {
  WsTrace      *trace;
  WsStackTable *stacks;
  const WsEvent *events;
  GHashTable   *function_of_stack;   /* stack id + 1 → function id + 1 (0: no frame) */
  GHashTable   *function_ids;        /* name → function id + 1 */
  GPtrArray    *function_names;      /* function id → name (the stack table's) */
} Builder;

static void
builder_clear (Builder *b)
{
  g_clear_pointer (&b->function_of_stack, g_hash_table_unref);
  g_clear_pointer (&b->function_ids, g_hash_table_unref);
  g_clear_pointer (&b->function_names, g_ptr_array_unref);
}

static gint64
function_key (Builder  *b,
              WsStackId stack)
{
  gpointer found;
  const WsFrame *frame;
  gsize id;

  if (stack == WS_STACK_EMPTY)
    return KEY_NO_STACK;
  if (g_hash_table_lookup_extended (b->function_of_stack, GUINT_TO_POINTER (stack + 1), NULL, &found))
    return GPOINTER_TO_SIZE (found) == 0 ? KEY_NO_STACK : (gint64) GPOINTER_TO_SIZE (found) - 1;
  frame = ws_wait_stack_function (b->stacks, stack);
  id = frame != NULL ? GPOINTER_TO_SIZE (g_hash_table_lookup (b->function_ids, frame->function)) : 0;
  if (frame != NULL && id == 0)
    {
      g_ptr_array_add (b->function_names, (gpointer) frame->function);
      id = b->function_names->len;
      g_hash_table_insert (b->function_ids, (gpointer) frame->function, GSIZE_TO_POINTER (id));
    }
  g_hash_table_insert (b->function_of_stack, GUINT_TO_POINTER (stack + 1), GSIZE_TO_POINTER (id));
  return id == 0 ? KEY_NO_STACK : (gint64) id - 1;
}

/* The key of @span under @column. */
static gint64
span_key (Builder           *b,
          const WsStateSpan *span,
          guint              thread,
          WsPivotColumn      column)
{
  const WsEvent *e = &b->events[span->event];
  const WsEvent *wake;
  guint readier = WS_NONE;
  WsReadierKind kind;

  switch (column)
    {
    case WS_PIVOT_PROCESS:
      return ws_trace_get_thread (b->trace, thread)->process;
    case WS_PIVOT_THREAD:
      return thread;
    case WS_PIVOT_STATE:
      return ws_thread_state_to_legend (span->state);
    case WS_PIVOT_WAITING_FUNCTION:
      return e->kind == WS_EVENT_WAIT ? function_key (b, e->stack) : KEY_NOT_WAITING;
    case WS_PIVOT_READIER_PROCESS:
    case WS_PIVOT_READIER_THREAD:
    case WS_PIVOT_READIER_FUNCTION:
    case WS_N_PIVOT_COLUMNS:
    default:
      break;
    }

  if (e->kind != WS_EVENT_WAIT)
    return KEY_NOT_WAITING;
  kind = ws_trace_wait_readier (b->trace, span->event, &readier);
  if (kind == WS_READIER_UNKNOWN)
    return (e->flags & WS_EVENT_FLAG_UNFINISHED) ? KEY_STILL_WAITING : KEY_NO_WAKEUP;
  wake = &b->events[e->peer];
  if (column == WS_PIVOT_READIER_FUNCTION)
    return function_key (b, wake->stack);
  if (kind == WS_READIER_HARDWARE)
    return ws_wake_word_for_interrupt (e->state) == WS_WAKE_WORD_DISK ? KEY_DISK_DONE : KEY_INTERRUPT;
  if (column == WS_PIVOT_READIER_PROCESS)
    return ws_trace_get_thread (b->trace, readier)->process;
  return readier;
}

static void
name_special (WsPivotRow *row)
{
  switch (row->id)
    {
    case KEY_NOT_WAITING:
      /* Translators: a pivot table's readier or function of a running span */
      row->label = g_strdup (_("Not waiting"));
      break;
    case KEY_INTERRUPT:
      row->label = g_strdup (ws_wake_word_label (WS_WAKE_WORD_INTERRUPT));
      break;
    case KEY_DISK_DONE:
      row->label = g_strdup (ws_wake_word_label (WS_WAKE_WORD_DISK));
      break;
    case KEY_NO_WAKEUP:
      row->label = g_strdup (ws_wake_word_label (WS_WAKE_WORD_UNKNOWN));
      break;
    case KEY_STILL_WAITING:
      row->label = g_strdup (_("Still waiting when the recording ended"));
      break;
    case KEY_NO_STACK:
    default:
      row->label = g_strdup (_("No stack recorded"));
      break;
    }
}

static char *
thread_label (WsTrace *trace,
              guint    thread)
{
  const WsThread *t = ws_trace_get_thread (trace, thread);

  g_autofree char *name = g_utf8_make_valid (t->name ? t->name : "?", -1);

  return g_strdup_printf ("%s %d", name, t->tid);
}

static char *
process_label (WsTrace *trace,
               guint    process)
{
  const WsProcess *p = ws_trace_get_process (trace, process);
  g_autofree char *pid = ws_format_pid (p->pid);
  g_autofree char *name = g_utf8_make_valid (p->name ? p->name : "?", -1);

  return g_strdup_printf ("%s %s", name, pid);
}

/* Key and label of a new row, made once per row, not per span. */
static void
name_row (Builder    *b,
          WsPivotRow *row)
{
  if (row->id < 0)
    {
      name_special (row);
      return;
    }
  switch (row->column)
    {
    case WS_PIVOT_PROCESS:
    case WS_PIVOT_READIER_PROCESS:
      row->key = ws_format_pid (ws_trace_get_process (b->trace, row->id)->pid);
      row->label = process_label (b->trace, row->id);
      break;
    case WS_PIVOT_THREAD:
    case WS_PIVOT_READIER_THREAD:
      row->key = g_strdup_printf ("%d", ws_trace_get_thread (b->trace, row->id)->tid);
      row->label = thread_label (b->trace, row->id);
      break;
    case WS_PIVOT_STATE:
      row->key = g_strdup (ws_thread_state_to_string (row->id));
      row->label = g_strdup (ws_thread_state_get_name (row->id));
      break;
    case WS_PIVOT_WAITING_FUNCTION:
    case WS_PIVOT_READIER_FUNCTION:
      row->key = g_utf8_make_valid (g_ptr_array_index (b->function_names, row->id), -1);
      row->label = g_strdup (row->key);  /* already valid UTF-8 */
      break;
    case WS_N_PIVOT_COLUMNS:
    default:
      g_assert_not_reached ();
    }
}

static void
row_add (WsPivotRow        *row,
         const WsStateSpan *span,
         guint              thread,
         WsTime             t0,
         WsTime             t1)
{
  row->time += t1 - t0;
  row->count++;
  if (t0 < row->first_time)
    {
      row->first_time = t0;
      row->first_thread = thread;
      row->first_event = span->event;
    }
}

static void
add_span (Builder               *b,
          WsPivot               *pivot,
          const WsStateSpan     *span,
          guint                  thread)
{
  WsTime t0 = MAX (span->t0, pivot->t0), t1 = MIN (span->t1, pivot->t1);
  WsPivotRow *row = pivot->root;

  if (t1 <= t0)
    return;
  row_add (row, span, thread, t0, t1);
  for (guint c = 0; c < pivot->n_columns; c++)
    {
      gint64 id = span_key (b, span, thread, pivot->columns[c]);
      WsPivotRow *child;

      if (row->index == NULL)
        {
          row->index = g_hash_table_new (g_int64_hash, g_int64_equal);
          row->children = g_ptr_array_new_with_free_func (row_free);
        }
      child = g_hash_table_lookup (row->index, &id);
      if (child == NULL)
        {
          child = row_new (pivot->columns[c], id, row);
          name_row (b, child);
          g_ptr_array_add (row->children, child);
          g_hash_table_insert (row->index, &child->id, child);
        }
      row_add (child, span, thread, t0, t1);
      row = child;
    }
}

/**
 * ws_pivot_row_compare_time:
 *
 * Longest time first, then by label, then by key: an order that does not
 * depend on the order spans came in.
 */
int
ws_pivot_row_compare_time (gconstpointer a,
                           gconstpointer b)
{
  const WsPivotRow *ra = *(WsPivotRow * const *) a, *rb = *(WsPivotRow * const *) b;
  int c;

  if (ra->time != rb->time)
    return ra->time > rb->time ? -1 : 1;
  if ((c = g_strcmp0 (ra->label, rb->label)) != 0)
    return c;
  return ra->id < rb->id ? -1 : ra->id > rb->id;
}

static void
sort_rows (WsPivotRow  *row,
           GCompareFunc compare)
{
  g_clear_pointer (&row->index, g_hash_table_unref);
  if (row->children == NULL)
    return;
  g_ptr_array_sort (row->children, compare);
  for (guint i = 0; i < row->children->len; i++)
    sort_rows (g_ptr_array_index (row->children, i), compare);
}

/**
 * ws_pivot_sort:
 * @compare: orders two `WsPivotRow **`
 *
 * Sorts every row's children (ws_pivot_run() sorts by
 * ws_pivot_row_compare_time()).
 */
void
ws_pivot_sort (WsPivot     *pivot,
               GCompareFunc compare)
{
  sort_rows (pivot->root, compare);
}

double
ws_pivot_row_share (const WsPivot    *pivot,
                    const WsPivotRow *row)
{
  return pivot->root->time > 0 ? (double) row->time / (double) pivot->root->time : 0.0;
}

/* The thread's life inside the window: from its first event or span to
 * its last, as the trace saw it. */
static WsTime
life_in_window (WsTrace *trace,
                guint    thread,
                GArray  *spans,
                WsTime   t0,
                WsTime   t1)
{
  const WsThread *t = ws_trace_get_thread (trace, thread);
  WsTime a = t->first_seen, e = t->last_seen;

  if (spans->len > 0)
    {
      a = MIN (a, g_array_index (spans, WsStateSpan, 0).t0);
      e = MAX (e, g_array_index (spans, WsStateSpan, spans->len - 1).t1);
    }
  a = MAX (a, t0);
  e = MIN (e, t1);
  return e > a ? e - a : 0;
}

static gboolean
check_settings (WsTrace               *trace,
                const WsPivotSettings *settings,
                GError               **error)
{
  gboolean seen[WS_N_PIVOT_COLUMNS] = { FALSE };

  if (settings->n_columns > WS_N_PIVOT_COLUMNS)
    goto bad_column;
  for (guint c = 0; c < settings->n_columns; c++)
    {
      if (settings->columns[c] >= WS_N_PIVOT_COLUMNS || seen[settings->columns[c]])
        goto bad_column;
      seen[settings->columns[c]] = TRUE;
    }
  for (guint i = 0; i < settings->n_threads && settings->threads != NULL; i++)
    if (settings->threads[i] >= ws_trace_get_n_threads (trace))
      {
        g_set_error (error, WS_ERROR, WS_ERROR_INVALID, _("no thread %u in the trace"), settings->threads[i]);
        return FALSE;
      }
  return TRUE;

bad_column:
  g_set_error_literal (error, WS_ERROR, WS_ERROR_INVALID, _("each pivot column may be given once"));
  return FALSE;
}

/**
 * ws_pivot_run:
 * @settings: the columns, the threads and the window
 * @cancellable: (nullable): checked between threads
 * @progress: (nullable): 0 … 1, by threads done
 *
 * The one entry point of the pivot table, for the CLI (`pivot`) and the
 * Pivot page alike.
 *
 * Returns: (transfer full): the table, or %NULL with @error
 */
WsPivot *
ws_pivot_run (WsTrace               *trace,
              const WsPivotSettings *settings,
              GCancellable          *cancellable,
              WsProgressFunc         progress,
              gpointer               progress_data,
              GError               **error)
{
  g_autoptr(WsPivot) pivot = NULL;
  g_autofree gboolean *in_scope = NULL;
  Builder b = { 0 };
  WsProgressLoop loop;
  guint n_threads;

  g_return_val_if_fail (WS_IS_TRACE (trace), NULL);
  g_return_val_if_fail (settings != NULL, NULL);

  if (!check_settings (trace, settings, error))
    return NULL;

  n_threads = ws_trace_get_n_threads (trace);
  pivot = g_new0 (WsPivot, 1);
  pivot->trace = g_object_ref (trace);
  memcpy (pivot->columns, settings->columns, sizeof pivot->columns);
  pivot->n_columns = settings->n_columns;
  pivot->t0 = settings->t1 > settings->t0 ? settings->t0 : ws_trace_get_start_time (trace);
  pivot->t1 = settings->t1 > settings->t0 ? settings->t1 : ws_trace_get_end_time (trace);
  pivot->root = row_new (WS_N_PIVOT_COLUMNS, 0, NULL);
  pivot->root->label = g_strdup (_("Total"));

  in_scope = g_new0 (gboolean, MAX (n_threads, 1));
  for (guint t = 0; t < n_threads; t++)
    in_scope[t] = settings->threads == NULL;
  for (guint i = 0; settings->threads != NULL && i < settings->n_threads; i++)
    in_scope[settings->threads[i]] = TRUE;

  b.trace = trace;
  b.stacks = ws_trace_get_stack_table (trace);
  b.events = ws_trace_get_events (trace);
  b.function_of_stack = g_hash_table_new (NULL, NULL);
  b.function_ids = g_hash_table_new (g_str_hash, g_str_equal);
  b.function_names = g_ptr_array_new ();

  ws_progress_report (progress, progress_data, 0.0, _("Summing the threads’ time"));
  ws_progress_loop_init (&loop, cancellable, progress, progress_data, 0.0, 1.0, _("Summing the threads’ time"));
  for (guint t = 0; t < n_threads; t++)
    {
      g_autoptr(GArray) spans = NULL;
      guint first;

      if (!ws_progress_loop_step (&loop, (double) t / MAX (n_threads, 1), error))
        {
          builder_clear (&b);
          return NULL;
        }
      if (!in_scope[t])
        continue;
      pivot->n_threads++;
      spans = ws_thread_state_spans (trace, t);
      pivot->lifetime += life_in_window (trace, t, spans, pivot->t0, pivot->t1);
      first = ws_state_spans_lower_bound ((const WsStateSpan *) (gpointer) spans->data, spans->len, pivot->t0);
      for (guint i = first; i < spans->len; i++)
        {
          const WsStateSpan *span = &g_array_index (spans, WsStateSpan, i);
          if (span->t0 >= pivot->t1)
            break;
          add_span (&b, pivot, span, t);
        }
    }
  builder_clear (&b);

  pivot->unrecorded = pivot->lifetime - pivot->root->time;
  ws_pivot_sort (pivot, ws_pivot_row_compare_time);
  ws_progress_report (progress, progress_data, 1.0, NULL);
  return g_steal_pointer (&pivot);
}
