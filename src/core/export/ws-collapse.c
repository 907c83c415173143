/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Folding a trace's stacks.  For samples the rules are
 * stackcollapse-perf.pl's, so that its users get the same lines from
 * Waitscope: the first frame is the comm with spaces made '_'; a sample's
 * count is its period (1 when the file had no period column); perf's
 * "+0x…" offsets are dropped (the importer already did); "[unknown]" becomes
 * the module's base name in brackets; ';' in a name becomes ':'; a name is
 * cut at its first '(' (C++ and Rust argument lists) unless it is
 * "(anonymous namespace)" or has ".(…)." in it; quotes are dropped; Java
 * names lose their leading 'L' in processes called java*; only one sample
 * event is folded.  Lines come out sorted by byte value.
 */
#include "config.h"

#include <string.h>

#include <glib/gi18n-lib.h>

#include "ws-collapse.h"
#include "ws-error.h"

/**
 * ws_collapse_options_init:
 *
 * Samples of the first event, named by comm, waits in microseconds.
 */
void
ws_collapse_options_init (WsCollapseOptions *options)
{
  g_return_if_fail (options != NULL);

  memset (options, 0, sizeof *options);
  options->mode = WS_COLLAPSE_SAMPLES;
  options->name = WS_COLLAPSE_NAME_COMM;
  options->wait_unit_ns = 1000;
}

/* "(...)" from the first '(' on, unless it is "(anonymous namespace)". */
static void
cut_arguments (GString *s)
{
  for (const char *p = strchr (s->str, '('); p != NULL; p = strchr (p + 1, '('))
    if (!g_str_has_prefix (p + 1, "anonymous namespace)"))
      {
        g_string_truncate (s, p - s->str);
        return;
      }
}

/* Perl's m/\.\(.*\)\./: a '.' '(' … ')' '.' somewhere. */
static gboolean
has_dotted_parens (const char *s)
{
  const char *open = strstr (s, ".(");

  return open != NULL && strstr (open + 2, ").") != NULL;
}

static void
tidy_one (GString    *out,
          const char *func,
          const char *module,
          gboolean    java)
{
  g_autoptr(GString) f = g_string_new (func);

  if (strcmp (func, "[unknown]") == 0)
    {
      if (module != NULL && strcmp (module, "[unknown]") != 0)
        {
          const char *base = strrchr (module, '/');
          g_string_printf (f, "[%s]", base ? base + 1 : module);
        }
      else
        g_string_assign (f, "[unknown]");
    }
  for (gsize i = 0; i < f->len; i++)
    if (f->str[i] == ';')
      f->str[i] = ':';
  if (!has_dotted_parens (f->str))
    cut_arguments (f);
  for (gsize i = 0; i < f->len;)
    if (f->str[i] == '"' || f->str[i] == '\'')
      g_string_erase (f, i, 1);
    else
      i++;
  if (java && f->str[0] == 'L' && strchr (f->str, '/') != NULL)
    g_string_erase (f, 0, 1);
  g_string_append (out, f->str);
}

/**
 * ws_collapse_tidy_function:
 * @function: a frame's function, as perf printed it
 * @module: (nullable): its module
 * @java: whether the process name starts with "java"
 *
 * Returns: (transfer full): the frame as stackcollapse-perf.pl writes it
 *   (old perf's "a->b" inline chains become "a;b")
 */
char *
ws_collapse_tidy_function (const char *function,
                           const char *module,
                           gboolean    java)
{
  g_auto(GStrv) parts = NULL;
  GString *out = g_string_new (NULL);

  g_return_val_if_fail (function != NULL, NULL);

  /* An empty symbol (old perf's "ADDR  (MODULE)"): stackcollapse-perf.pl's
   * pattern takes the second of the two spaces for the name. */
  if (function[0] == '\0')
    return g_strdup (" ");

  parts = g_strsplit (function, "->", -1);
  for (guint i = 0; parts[i] != NULL; i++)
    {
      if (i > 0)
        g_string_append_c (out, ';');
      tidy_one (out, parts[i], module, java);
      if (i > 0 && !g_str_has_suffix (out->str, "_[i]"))
        g_string_append (out, "_[i]");
    }
  return g_string_free (out, FALSE);
}

/* The first frame: comm (spaces as '_'), with the ids asked for. */
static char *
thread_label (WsTrace          *trace,
              guint             thread,
              const char       *comm,
              WsCollapseName    name)
{
  const WsThread *t = ws_trace_get_thread (trace, thread);
  g_autofree char *pid = t->pid >= 0 ? g_strdup_printf ("%d", t->pid) : g_strdup ("?");
  char *label;

  switch (name)
    {
    case WS_COLLAPSE_NAME_PID:
      label = g_strdup_printf ("%s-%s", comm ? comm : "", pid);
      break;
    case WS_COLLAPSE_NAME_TID:
      label = g_strdup_printf ("%s-%s/%d", comm ? comm : "", pid, t->tid);
      break;
    case WS_COLLAPSE_NAME_COMM:
    default:
      label = g_strdup (comm ? comm : "");
      break;
    }
  g_strdelimit (label, " ", '_');
  return label;
}

/* Frames of @stack, caller first (or leaf first), tidied, each after a ';'. */
static void
append_stack (GString      *line,
              WsStackTable *stacks,
              WsStackId     stack,
              gboolean      java,
              gboolean      leaf_first)
{
  guint n = 0;
  const WsFrameId *frames = stack != WS_STACK_EMPTY ? ws_stack_table_get_stack (stacks, stack, &n) : NULL;

  for (guint k = 0; k < n; k++)
    {
      const WsFrame *f = ws_stack_table_get_frame (stacks, frames[leaf_first ? n - 1 - k : k]);
      g_autofree char *tidy = ws_collapse_tidy_function (f->function ? f->function : "[unknown]",
                                                         f->module, java);

      /* stackcollapse-perf skips frames that are a process name "(…)". */
      if (tidy[0] == '(')
        continue;
      g_string_append_c (line, ';');
      g_string_append (line, tidy);
    }
}

typedef struct {
  WsTrace                 *trace;
  const WsCollapseOptions *options;
  GHashTable              *counts;     /* line -> guint64* */
  GHashTable              *labels;     /* "thread\x1fcomm" -> label */
  guint8                  *in_scope;   /* per thread, or NULL: every thread */
} Folder;

/* The part of [e->time, e->time + e->duration) inside the window. */
static WsTime
clipped_duration (const WsCollapseOptions *options,
                  const WsEvent           *e)
{
  WsTime start = e->time, end = e->time + MAX (ws_event_duration (e), 0);

  if (options->has_window)
    {
      start = MAX (start, options->window_start);
      end = MIN (end, options->window_end);
    }
  return MAX (end - start, 0);
}

/* The first frame for @thread, by the comm it had at @time. */
static const char *
label_of (Folder *f,
          guint   thread,
          WsTime  time)
{
  const char *comm = ws_trace_get_thread_comm_at (f->trace, thread, time);
  g_autofree char *key = g_strdup_printf ("%u\x1f%s", thread, comm ? comm : "");
  char *label = g_hash_table_lookup (f->labels, key);

  if (label == NULL)
    {
      label = thread_label (f->trace, thread, comm, f->options->name);
      g_hash_table_insert (f->labels, g_steal_pointer (&key), label);
    }
  return label;
}

static void
add_line (Folder  *f,
          GString *line,
          guint64  count)
{
  guint64 *c = g_hash_table_lookup (f->counts, line->str);

  if (c == NULL)
    {
      c = g_new0 (guint64, 1);
      g_hash_table_insert (f->counts, g_strdup (line->str), c);
    }
  *c += count;
}

/* A sample counts whole (its period) if its instant is in the window; a
 * span counts the part of it inside the window, in wait units. */
static void
fold_running (Folder        *f,
              const WsEvent *e,
              GString       *line)
{
  const WsCollapseOptions *o = f->options;
  const char *label;
  guint64 count;

  if (e->flags & WS_EVENT_FLAG_SPAN)
    count = (guint64) clipped_duration (o, e) / (guint64) MAX (o->wait_unit_ns, 1);
  else if (o->has_window && (e->time < o->window_start || e->time >= o->window_end))
    return;
  else
    count = (guint64) MAX (ws_event_duration (e), 0);
  if (count == 0 && (e->flags & WS_EVENT_FLAG_SPAN))
    return;
  label = label_of (f, e->thread, e->time);
  g_string_assign (line, label);
  append_stack (line, ws_trace_get_stack_table (f->trace), e->stack,
                g_str_has_prefix (label, "java"), FALSE);
  add_line (f, line, count);
}

static void
fold_wait (Folder        *f,
           guint          index,
           const WsEvent *e,
           GString       *line)
{
  WsStackTable *stacks = ws_trace_get_stack_table (f->trace);
  const char *label = label_of (f, e->thread, e->time);
  guint64 count = (guint64) clipped_duration (f->options, e) / (guint64) MAX (f->options->wait_unit_ns, 1);

  if (count == 0)
    return;   /* as offcputime: shorter than one unit */
  g_string_assign (line, label);
  append_stack (line, stacks, e->stack, g_str_has_prefix (label, "java"), FALSE);
  if (f->options->with_waker)
    {
      guint readier;
      WsReadierKind kind = ws_trace_wait_readier (f->trace, index, &readier);

      g_string_append (line, ";--");
      if (kind == WS_READIER_THREAD)
        {
          const WsEvent *unwait = ws_trace_get_event (f->trace, e->peer);
          const char *waker = label_of (f, readier, unwait->time);

          append_stack (line, stacks, unwait->stack, g_str_has_prefix (waker, "java"), TRUE);
          g_string_append_printf (line, ";%s", waker);
        }
      else if (kind == WS_READIER_HARDWARE)
        {
          append_stack (line, stacks, ws_trace_get_event (f->trace, e->peer)->stack, FALSE, TRUE);
          g_string_append (line, ";[interrupt]");
        }
      else
        g_string_append (line, ";[unknown waker]");
    }
  add_line (f, line, count);
}

/* The first sample event's name, in time order. */
static guint32
first_sample_event (WsTrace *trace)
{
  for (guint i = 0; i < ws_trace_get_n_events (trace); i++)
    {
      const WsEvent *e = ws_trace_get_event (trace, i);
      if (e->kind == WS_EVENT_RUNNING && !(e->flags & WS_EVENT_FLAG_SPAN))
        return ws_event_name (e);
    }
  return WS_NONE;
}

static int
compare_lines (gconstpointer a,
               gconstpointer b)
{
  return strcmp (*(const char * const *) a, *(const char * const *) b);
}

/**
 * ws_collapse_trace_has_samples:
 *
 * Returns: whether the trace has CPU samples (running events that are not
 *   switch-in → switch-out spans)
 */
gboolean
ws_collapse_trace_has_samples (WsTrace *trace)
{
  g_return_val_if_fail (WS_IS_TRACE (trace), FALSE);

  for (guint i = 0; i < ws_trace_get_n_events (trace); i++)
    {
      const WsEvent *e = ws_trace_get_event (trace, i);
      if (e->kind == WS_EVENT_RUNNING && !(e->flags & WS_EVENT_FLAG_SPAN))
        return TRUE;
    }
  return FALSE;
}

/**
 * ws_collapse_counts:
 * @event_used: (out) (optional) (transfer none): samples: the event folded
 *   (%NULL if the samples have no event name)
 *
 * The folding itself, before the lines are written: each distinct stack
 * ("comm;caller;…;leaf", with the waker's part for offwaketime) and its
 * count, over the options' scope.
 *
 * Returns: (transfer full) (element-type utf8 guint64*): line → count
 */
GHashTable *
ws_collapse_counts (WsTrace                 *trace,
                    const WsCollapseOptions *options,
                    const char             **event_used)
{
  g_autoptr(GString) line = g_string_new (NULL);
  Folder f = { trace, options, NULL, NULL, NULL };
  guint32 event = WS_NONE;

  g_return_val_if_fail (WS_IS_TRACE (trace), NULL);
  g_return_val_if_fail (options != NULL, NULL);

  f.counts = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  f.labels = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  if (options->threads != NULL)
    {
      guint n = ws_trace_get_n_threads (trace);

      f.in_scope = g_new0 (guint8, MAX (n, 1));
      for (guint k = 0; k < options->n_threads; k++)
        if (options->threads[k] < n)
          f.in_scope[options->threads[k]] = 1;
    }
  if (options->mode == WS_COLLAPSE_SAMPLES)
    event = options->event ? ws_trace_lookup_string (trace, options->event) : first_sample_event (trace);
  if (event_used != NULL)
    *event_used = event != WS_NONE ? ws_trace_get_string (trace, event) : NULL;

  for (guint i = 0; i < ws_trace_get_n_events (trace); i++)
    {
      const WsEvent *e = ws_trace_get_event (trace, i);

      if (f.in_scope != NULL && !f.in_scope[e->thread])
        continue;
      if (options->mode == WS_COLLAPSE_SAMPLES && e->kind == WS_EVENT_RUNNING &&
          !(e->flags & WS_EVENT_FLAG_SPAN) && ws_event_name (e) == event &&
          (event != WS_NONE || options->event == NULL))
        fold_running (&f, e, line);
      else if (options->mode == WS_COLLAPSE_SPANS && e->kind == WS_EVENT_RUNNING &&
               (e->flags & WS_EVENT_FLAG_SPAN))
        fold_running (&f, e, line);
      else if (options->mode == WS_COLLAPSE_WAITS && e->kind == WS_EVENT_WAIT)
        fold_wait (&f, i, e, line);
    }

  g_hash_table_unref (f.labels);
  g_free (f.in_scope);
  return f.counts;
}

/**
 * ws_collapse_lines:
 * @event_used: (out) (optional) (transfer none): samples: the event folded
 *   (%NULL if the samples have no event name)
 *
 * Returns: (transfer full) (element-type utf8): the folded lines, sorted,
 *   each "frames COUNT" without a newline
 */
GPtrArray *
ws_collapse_lines (WsTrace                 *trace,
                   const WsCollapseOptions *options,
                   const char             **event_used)
{
  g_autoptr(GHashTable) counts = ws_collapse_counts (trace, options, event_used);
  GPtrArray *lines = g_ptr_array_new_with_free_func (g_free);
  GHashTableIter iter;
  gpointer key, value;

  g_return_val_if_fail (counts != NULL, lines);

  g_hash_table_iter_init (&iter, counts);
  while (g_hash_table_iter_next (&iter, &key, &value))
    g_ptr_array_add (lines, g_strdup_printf ("%s %" G_GUINT64_FORMAT, (char *) key, *(guint64 *) value));
  g_ptr_array_sort (lines, compare_lines);
  return lines;
}

/**
 * ws_collapse_write:
 *
 * Writes ws_collapse_lines(), one per line.
 *
 * Returns: %FALSE with @error set if writing failed
 */
gboolean
ws_collapse_write (WsTrace                 *trace,
                   const WsCollapseOptions *options,
                   GOutputStream           *out,
                   GCancellable            *cancellable,
                   GError                 **error)
{
  g_autoptr(GPtrArray) lines = NULL;
  g_autoptr(GString) buf = g_string_new (NULL);

  g_return_val_if_fail (G_IS_OUTPUT_STREAM (out), FALSE);

  lines = ws_collapse_lines (trace, options, NULL);
  for (guint i = 0; i < lines->len; i++)
    {
      g_string_append (buf, g_ptr_array_index (lines, i));
      g_string_append_c (buf, '\n');
      if (buf->len > 64 * 1024 || i + 1 == lines->len)
        {
          if (!g_output_stream_write_all (out, buf->str, buf->len, NULL, cancellable, error))
            return FALSE;
          g_string_truncate (buf, 0);
        }
    }
  return TRUE;
}
