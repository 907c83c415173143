/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Classes of whole traces (ws-trace-classes.h): a fleet of runs of one
 * program, each run slow or fast, read from a classes file or given one
 * by one; and the program a fleet is about when nobody says.
 */
#include "config.h"

#include <glib/gi18n-lib.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ws-error.h"
#include "ws-thread-picker.h"
#include "ws-trace-classes.h"

static void
entry_clear (gpointer data)
{
  g_free (((WsRunClassEntry *) data)->path);
}

const char *
ws_run_class_to_string (WsRunClass klass)
{
  switch (klass)
    {
    case WS_RUN_CLASS_FAST: return "fast";
    case WS_RUN_CLASS_SLOW: return "slow";
    case WS_RUN_CLASS_NONE:
    default:                  return "none";
    }
}

static gboolean
parse_class (const char   *s,
             WsRunClass *klass)
{
  if (g_ascii_strcasecmp (s, "slow") == 0)
    *klass = WS_RUN_CLASS_SLOW;
  else if (g_ascii_strcasecmp (s, "fast") == 0)
    *klass = WS_RUN_CLASS_FAST;
  else
    return FALSE;
  return TRUE;
}

static gboolean
parse_latency (const char *s,
               double     *latency)
{
  char *end = NULL;

  if (*s == '\0')
    return FALSE;
  *latency = g_ascii_strtod (s, &end);
  return end != NULL && *end == '\0' && isfinite (*latency);
}

/* One line "trace,VALUE[,VALUE]": each VALUE a latency or slow/fast. */
static gboolean
parse_line (const char         *dir,
            char              **fields,
            WsRunClassEntry  *entry)
{
  guint n = g_strv_length (fields);

  if (n < 2 || n > 3 || *g_strstrip (fields[0]) == '\0')
    return FALSE;
  entry->path = g_path_is_absolute (fields[0]) ? g_strdup (fields[0]) : g_build_filename (dir, fields[0], NULL);
  entry->latency = NAN;
  entry->klass = WS_RUN_CLASS_NONE;
  for (guint i = 1; i < n; i++)
    {
      const char *v = g_strstrip (fields[i]);

      if (!parse_class (v, &entry->klass) && !parse_latency (v, &entry->latency))
        return FALSE;
    }
  return TRUE;
}

/**
 * ws_trace_classes_read_csv:
 * @path: a CSV file: one line per trace, "trace,latency" (milliseconds), "trace,slow"
 *   (or "fast"), or "trace,latency,class"; an optional header line whose
 *   first field is "trace"; empty lines and lines starting with # skipped
 *
 * Returns: (transfer full) (element-type WsRunClassEntry): the entries,
 *   or %NULL with @error naming the file and line
 */
GArray *
ws_trace_classes_read_csv (const char  *path,
                           GError     **error)
{
  g_autofree char *text = NULL;
  g_autofree char *dir = g_path_get_dirname (path);
  g_auto(GStrv) lines = NULL;
  g_autoptr(GArray) entries = g_array_new (FALSE, TRUE, sizeof (WsRunClassEntry));

  g_array_set_clear_func (entries, entry_clear);
  if (!g_file_get_contents (path, &text, NULL, error))
    return NULL;
  if (!g_utf8_validate (text, -1, NULL))
    {
      g_set_error (error, WS_ERROR, WS_ERROR_INVALID, _("%s: not UTF-8 text"), path);
      return NULL;
    }
  lines = g_strsplit (text, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      g_auto(GStrv) fields = NULL;
      WsRunClassEntry entry = { 0 };
      char *line = g_strstrip (lines[i]);

      if (*line == '\0' || *line == '#')
        continue;
      fields = g_strsplit (line, ",", -1);
      if (entries->len == 0 && g_ascii_strcasecmp (g_strstrip (fields[0]), "trace") == 0)
        continue;
      if (!parse_line (dir, fields, &entry))
        {
          g_free (entry.path);
          g_set_error (error, WS_ERROR, WS_ERROR_INVALID,
                       _("%s:%u: expected “trace,latency”, “trace,slow|fast” or “trace,latency,slow|fast”"),
                       path, i + 1);
          return NULL;
        }
      g_array_append_val (entries, entry);
    }
  if (entries->len == 0)
    {
      g_set_error (error, WS_ERROR, WS_ERROR_INVALID, _("%s: no trace listed"), path);
      return NULL;
    }
  return g_steal_pointer (&entries);
}

static int
compare_double (gconstpointer a,
                gconstpointer b)
{
  double x = *(const double *) a, y = *(const double *) b;
  return x < y ? -1 : x > y;
}

/* Nearest rank, as ws_instance_set_percentile(). */
static double
percentile (GArray *sorted,
            double  fraction)
{
  guint rank = (guint) CLAMP (fraction * sorted->len + 0.999999, 1, sorted->len);
  return g_array_index (sorted, double, rank - 1);
}

/**
 * ws_trace_classes_assign:
 * @fast_at_most: a trace whose latency is at most this is fast; NAN for
 *   the median of the latencies
 * @slow_at_least: at least this, slow; NAN for their 90th percentile
 *
 * Gives a class to every entry that has only a latency, by the same rule
 * as scenario instances' thresholds; entries with a class keep it.  Fails
 * when an entry has neither, or when either class ends up empty.
 */
gboolean
ws_trace_classes_assign (GArray  *entries,
                         double   fast_at_most,
                         double   slow_at_least,
                         GError **error)
{
  g_autoptr(GArray) latencies = g_array_new (FALSE, FALSE, sizeof (double));
  guint n_fast = 0, n_slow = 0;

  for (guint i = 0; i < entries->len; i++)
    {
      WsRunClassEntry *e = &g_array_index (entries, WsRunClassEntry, i);
      if (e->klass == WS_RUN_CLASS_NONE && isnan (e->latency))
        {
          g_set_error (error, WS_ERROR, WS_ERROR_INVALID, _("%s: neither a latency nor a class"), e->path);
          return FALSE;
        }
      if (e->klass == WS_RUN_CLASS_NONE)
        g_array_append_val (latencies, e->latency);
    }
  if (latencies->len > 0)
    {
      g_array_sort (latencies, compare_double);
      if (isnan (fast_at_most))
        fast_at_most = percentile (latencies, 0.5);
      if (isnan (slow_at_least))
        slow_at_least = percentile (latencies, 0.9);
    }
  for (guint i = 0; i < entries->len; i++)
    {
      WsRunClassEntry *e = &g_array_index (entries, WsRunClassEntry, i);

      if (e->klass == WS_RUN_CLASS_NONE && e->latency >= slow_at_least)
        e->klass = WS_RUN_CLASS_SLOW;
      else if (e->klass == WS_RUN_CLASS_NONE && e->latency <= fast_at_most)
        e->klass = WS_RUN_CLASS_FAST;
      n_fast += e->klass == WS_RUN_CLASS_FAST;
      n_slow += e->klass == WS_RUN_CLASS_SLOW;
    }
  if (n_fast == 0 || n_slow == 0)
    {
      g_set_error (error, WS_ERROR, WS_ERROR_INVALID, _("%u slow and %u fast traces: both classes need one or more"),
                   n_slow, n_fast);
      return FALSE;
    }
  return TRUE;
}

static double
class_median (GArray     *entries,
              WsRunClass  klass)
{
  g_autoptr(GArray) v = g_array_new (FALSE, FALSE, sizeof (double));

  for (guint i = 0; i < entries->len; i++)
    {
      const WsRunClassEntry *e = &g_array_index (entries, WsRunClassEntry, i);
      if (e->klass == klass && !isnan (e->latency))
        g_array_append_val (v, e->latency);
    }
  if (v->len == 0)
    return NAN;
  g_array_sort (v, compare_double);
  return percentile (v, 0.5);
}

/**
 * ws_trace_classes_span_thresholds:
 *
 * T_fast and T_slow for a contrast of thread spans (whole runs, whose
 * spans all last about the recording's length, so their durations say
 * nothing): the fast and slow classes' median latencies when the classes
 * have latencies; else T_fast = 1 ns and T_slow = "never", so that the
 * contrast patterns are those no fast run has and none is of high impact.
 */
void
ws_trace_classes_span_thresholds (GArray *entries,
                                  WsTime *t_fast,
                                  WsTime *t_slow)
{
  /* No entries: classes given without latencies (the Contrast page). */
  double fast = entries != NULL ? class_median (entries, WS_RUN_CLASS_FAST) : NAN;
  double slow = entries != NULL ? class_median (entries, WS_RUN_CLASS_SLOW) : NAN;

  if (!isnan (fast) && !isnan (slow) && fast > 0 && slow > fast)
    {
      *t_fast = (WsTime) (fast * 1e6);
      *t_slow = (WsTime) (slow * 1e6);
    }
  else
    {
      *t_fast = 1;
      *t_slow = G_MAXINT64 / 2;
    }
}

/**
 * ws_trace_classes_span_thresholds_are_medians:
 *
 * Whether @t_fast and @t_slow from ws_trace_classes_span_thresholds() are
 * the classes' median latencies, or only the stand-ins used when the
 * classes came without latencies (which are no durations to print).
 */
gboolean
ws_trace_classes_span_thresholds_are_medians (WsTime t_fast,
                                              WsTime t_slow)
{
  return !(t_fast == 1 && t_slow == G_MAXINT64 / 2);
}

/**
 * ws_trace_classes_program_of_interest:
 * @traces: (element-type WsTrace)
 *
 * The program a fleet is about: the one the thread picker (the default of
 * `why` and of the Overview without scenarios) chooses in the most traces,
 * the first such in trace order on a tie.
 *
 * Returns: (transfer full) (nullable): its process name, or %NULL when no
 *   thread of any trace was held up
 */
char *
ws_trace_classes_program_of_interest (GPtrArray *traces)
{
  g_autoptr(GHashTable) votes = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_autoptr(GPtrArray) order = g_ptr_array_new_with_free_func (g_free);
  const char *best = NULL;
  guint best_votes = 0;

  for (guint t = 0; t < traces->len; t++)
    {
      g_autoptr(WsThreadPick) pick = ws_thread_picker_pick (g_ptr_array_index (traces, t), NULL, 1);
      guint n;

      if (pick == NULL || pick->program == NULL)
        continue;
      n = GPOINTER_TO_UINT (g_hash_table_lookup (votes, pick->program));
      if (n == 0)
        g_ptr_array_add (order, g_strdup (pick->program));
      g_hash_table_insert (votes, g_strdup (pick->program), GUINT_TO_POINTER (n + 1));
    }
  for (guint i = 0; i < order->len; i++)
    {
      guint n = GPOINTER_TO_UINT (g_hash_table_lookup (votes, g_ptr_array_index (order, i)));
      if (n > best_votes)
        {
          best = g_ptr_array_index (order, i);
          best_votes = n;
        }
    }
  return g_strdup (best);
}
