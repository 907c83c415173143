/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Folded stacks and Chrome trace JSON out: off-CPU folding adds up to the
 * waits, a perf trace folded and read back mines the same patterns, and the
 * Chrome JSON is well formed (slices nest, async slices close, every flow
 * joins two existing slices).
 */
#include <json-glib/json-glib.h>
#include <string.h>

#include "ws-cli-test-util.h"
#include "ws-chrome-trace.h"
#include "ws-collapse.h"
#include "ws-trace-loader.h"
#include "ws-trace-private.h"

static WsTrace *
load_data (const char *name)
{
  g_autofree char *path = g_build_filename (g_getenv ("WS_TEST_DATA"), name, NULL);
  g_autoptr(GError) error = NULL;
  WsTrace *trace = ws_trace_loader_load (path, NULL, NULL, NULL, NULL, &error);

  g_assert_no_error (error);
  return trace;
}

static void
test_collapse_waits (void)
{
  g_autoptr(WsTrace) trace = load_data ("py-locks.perf.txt.gz");
  g_autoptr(GPtrArray) lines = NULL;
  g_autoptr(GPtrArray) waker_lines = NULL;
  WsCollapseOptions options;
  guint64 expected = 0, total = 0;

  for (guint i = 0; i < ws_trace_get_n_events (trace); i++)
    {
      const WsEvent *e = ws_trace_get_event (trace, i);
      if (e->kind == WS_EVENT_WAIT)
        expected += (guint64) ws_event_duration (e) / 1000;
    }

  ws_collapse_options_init (&options);
  options.mode = WS_COLLAPSE_WAITS;
  lines = ws_collapse_lines (trace, &options, NULL);
  g_assert_cmpuint (lines->len, >, 10);
  for (guint i = 0; i < lines->len; i++)
    {
      const char *line = g_ptr_array_index (lines, i);
      total += g_ascii_strtoull (strrchr (line, ' ') + 1, NULL, 10);
      g_assert_null (strstr (line, ";--;"));
    }
  g_assert_cmpuint (total, ==, expected);

  options.with_waker = TRUE;
  waker_lines = ws_collapse_lines (trace, &options, NULL);
  total = 0;
  for (guint i = 0; i < waker_lines->len; i++)
    {
      const char *line = g_ptr_array_index (waker_lines, i);
      total += g_ascii_strtoull (strrchr (line, ' ') + 1, NULL, 10);
      g_assert_nonnull (strstr (line, ";--;"));
    }
  g_assert_cmpuint (total, ==, expected);
  g_assert_cmpuint (waker_lines->len, >=, lines->len);
}

static JsonNode *
run_cli_json (const char * const *argv)
{
  g_auto(WsCliRun) run = { 0 };
  g_autoptr(GError) error = NULL;
  JsonNode *node;

  ws_cli_run_argv (&run, NULL, argv);
  g_assert_cmpint (run.status, ==, 0);
  node = json_from_string (run.out, &error);
  g_assert_no_error (error);
  return node;
}

/* A pattern as "COST|f1|f2…", its frames as flame graphs name them. */
static char *
pattern_key (JsonObject *pattern,
             gboolean    direct)
{
  JsonArray *frames = json_object_get_array_member (pattern, "frames");
  GString *key = g_string_new (NULL);

  g_string_append_printf (key, "%" G_GINT64_FORMAT, json_object_get_int_member (pattern, "cost"));
  for (guint i = 0; i < json_array_get_length (frames); i++)
    {
      g_autofree char *frame = g_strdup (json_array_get_string_element (frames, i));
      char *open = g_str_has_suffix (frame, ")") ? g_strrstr (frame, " (") : NULL;
      g_autofree char *module = NULL;

      if (open != NULL)
        {
          module = g_strndup (open + 2, strlen (open + 2) - 1);
          *open = '\0';
        }
      if (direct)
        {
          g_autofree char *tidy = ws_collapse_tidy_function (frame, module, FALSE);
          g_string_append_printf (key, "|%s", tidy);
        }
      else
        g_string_append_printf (key, "|%s", frame);
    }
  return g_string_free (key, FALSE);
}

static int
compare_keys (gconstpointer a,
              gconstpointer b)
{
  return strcmp (*(const char * const *) a, *(const char * const *) b);
}

static GPtrArray *
pattern_keys (JsonNode *result,
              gboolean  direct)
{
  JsonArray *patterns = json_object_get_array_member (json_node_get_object (result), "patterns");
  GPtrArray *keys = g_ptr_array_new_with_free_func (g_free);

  for (guint i = 0; i < json_array_get_length (patterns); i++)
    g_ptr_array_add (keys, pattern_key (json_array_get_object_element (patterns, i), direct));
  g_ptr_array_sort (keys, compare_keys);
  return keys;
}

/* perf text → collapse → folded import → mine = mining the perf text. */
static void
test_round_trip (void)
{
  g_autofree char *perf = g_build_filename (g_getenv ("WS_TEST_DATA"), "py-locks.perf.txt.gz", NULL);
  g_autofree char *dir = g_dir_make_tmp ("ws-roundtrip-XXXXXX", NULL);
  g_autofree char *folded = g_build_filename (dir, "py-locks.folded", NULL);
  g_autoptr(WsTrace) trace = NULL;
  g_autoptr(JsonNode) direct = NULL;
  g_autoptr(JsonNode) back = NULL;
  g_autoptr(GPtrArray) a = NULL;
  g_autoptr(GPtrArray) b = NULL;
  g_autoptr(GError) error = NULL;
  WsCollapseOptions options;
  g_autoptr(GFile) file = g_file_new_for_path (folded);
  g_autoptr(GFileOutputStream) out = g_file_replace (file, NULL, FALSE, G_FILE_CREATE_NONE, NULL, &error);
  const char *mine_direct[] = { "mine", "--running", "--json", "--no-history", "--lambda", "10ms", "--top", "0", perf, NULL };
  const char *mine_back[] = { "mine", "--running", "--json", "--no-history", "--lambda", "10ms", "--top", "0", folded, NULL };

  trace = load_data ("py-locks.perf.txt.gz");
  ws_collapse_options_init (&options);
  g_assert_true (ws_collapse_write (trace, &options, G_OUTPUT_STREAM (out), NULL, &error));
  g_assert_true (g_output_stream_close (G_OUTPUT_STREAM (out), NULL, &error));

  direct = run_cli_json (mine_direct);
  back = run_cli_json (mine_back);
  a = pattern_keys (direct, TRUE);
  b = pattern_keys (back, FALSE);
  g_assert_cmpuint (a->len, >=, 5);
  g_assert_cmpuint (a->len, ==, b->len);
  for (guint i = 0; i < a->len; i++)
    g_assert_cmpstr (g_ptr_array_index (a, i), ==, g_ptr_array_index (b, i));
  g_assert_cmpint (json_object_get_int_member (json_node_get_object (direct), "total_cost"), ==,
                   json_object_get_int_member (json_node_get_object (back), "total_cost"));
}

typedef struct {
  GHashTable *open_b;      /* "pid/tid" -> depth of B/E */
  GHashTable *async;       /* "cat/id" -> open count */
  GHashTable *flows_out;   /* bind_id -> count */
  GHashTable *flows_in;
  guint       slices;
  guint       waits;
  guint       instances;
} Check;

static void
count (GHashTable *table,
       const char *key,
       int         delta)
{
  int n = GPOINTER_TO_INT (g_hash_table_lookup (table, key)) + delta;

  g_hash_table_insert (table, g_strdup (key), GINT_TO_POINTER (n));
}

static void
check_event (Check      *c,
             JsonObject *ev)
{
  const char *ph = json_object_get_string_member (ev, "ph");
  g_autofree char *track = g_strdup_printf ("%" G_GINT64_FORMAT "/%" G_GINT64_FORMAT,
                                            json_object_get_int_member (ev, "pid"),
                                            json_object_get_int_member (ev, "tid"));

  g_assert_true (json_object_has_member (ev, "ts"));
  if (strcmp (ph, "X") == 0)
    {
      g_assert_cmpfloat (json_object_get_double_member (ev, "dur"), >=, 0);
      c->slices++;
      c->waits += g_strcmp0 (json_object_get_string_member (ev, "cat"), "wait") == 0;
      if (json_object_has_member (ev, "bind_id"))
        count (json_object_get_boolean_member_with_default (ev, "flow_out", FALSE) ? c->flows_out : c->flows_in,
               json_object_get_string_member (ev, "bind_id"), 1);
    }
  else if (strcmp (ph, "B") == 0 || strcmp (ph, "E") == 0)
    {
      count (c->open_b, track, strcmp (ph, "B") == 0 ? 1 : -1);
      g_assert_cmpint (GPOINTER_TO_INT (g_hash_table_lookup (c->open_b, track)), >=, 0);
    }
  else if (strcmp (ph, "b") == 0 || strcmp (ph, "e") == 0)
    {
      g_autofree char *key = g_strdup_printf ("%s/%s", json_object_get_string_member (ev, "cat"),
                                              json_object_get_string_member (ev, "id"));
      count (c->async, key, strcmp (ph, "b") == 0 ? 1 : -1);
      c->instances += strcmp (ph, "b") == 0;
    }
  else
    g_assert_true (strcmp (ph, "M") == 0 || strcmp (ph, "i") == 0);
}

static void
assert_all_zero (GHashTable *table)
{
  GHashTableIter iter;
  gpointer key, value;

  g_hash_table_iter_init (&iter, table);
  while (g_hash_table_iter_next (&iter, &key, &value))
    g_assert_cmpint (GPOINTER_TO_INT (value), ==, 0);
}

static void
check_chrome (const char *trace_name,
              gboolean    want_flows)
{
  g_autoptr(WsTrace) trace = load_data (trace_name);
  g_autofree char *dir = g_dir_make_tmp ("ws-chrome-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "out.json", NULL);
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) error = NULL;
  Check c = { 0 };
  JsonArray *events;
  GHashTableIter iter;
  gpointer key, value;

  g_assert_true (ws_chrome_trace_save (trace, path, NULL, &error));
  g_assert_true (json_parser_load_from_file (parser, path, &error));
  g_assert_no_error (error);
  events = json_object_get_array_member (json_node_get_object (json_parser_get_root (parser)), "traceEvents");
  c.open_b = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  c.async = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  c.flows_out = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  c.flows_in = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  for (guint i = 0; i < json_array_get_length (events); i++)
    check_event (&c, json_array_get_object_element (events, i));

  /* Every B has its E, every async begin its end. */
  assert_all_zero (c.open_b);
  assert_all_zero (c.async);
  /* Every flow joins exactly one start slice and one end slice. */
  g_assert_cmpuint (g_hash_table_size (c.flows_in), ==, g_hash_table_size (c.flows_out));
  g_hash_table_iter_init (&iter, c.flows_in);
  while (g_hash_table_iter_next (&iter, &key, &value))
    {
      g_assert_cmpint (GPOINTER_TO_INT (value), ==, 1);
      g_assert_cmpint (GPOINTER_TO_INT (g_hash_table_lookup (c.flows_out, key)), ==, 1);
    }
  g_assert_cmpuint (c.waits, ==, ws_trace_count_kind (trace, WS_EVENT_WAIT));
  g_assert_cmpuint (c.instances, ==, ws_trace_get_n_scenario_instances (trace));
  if (want_flows)
    g_assert_cmpuint (g_hash_table_size (c.flows_in), >, 100);

  g_hash_table_unref (c.open_b);
  g_hash_table_unref (c.async);
  g_hash_table_unref (c.flows_out);
  g_hash_table_unref (c.flows_in);
}

static void
test_chrome_perf (void)
{
  check_chrome ("py-locks.perf.txt.gz", TRUE);
}

static void
test_chrome_instances (void)
{
  check_chrome ("hand-built.json", FALSE);
}

/* The Chrome JSON's numbers are written by hand, not printf: over random
 * times (negative ones, thousand boundaries, the 2^61 bounds) and random
 * tids and pids, the text holds exactly the numbers printf writes — the
 * multiset of every "ts", "dur", "pid" and "tid" value. */
static void
count_value (GHashTable *counts,
             const char *member,
             const char *value)
{
  g_autofree char *key = g_strconcat (member, "=", value, NULL);
  g_hash_table_insert (counts, g_strdup (key), GINT_TO_POINTER (GPOINTER_TO_INT (g_hash_table_lookup (counts, key)) + 1));
}

static void
count_number (GHashTable *counts,
              const char *member,
              gint64      whole,
              int         thousandths)
{
  g_autofree char *text = g_strdup_printf ("%" G_GINT64_FORMAT ".%03d", whole, thousandths);
  count_value (counts, member, text);
}

static WsTime
random_time (GRand *rand)
{
  switch (g_rand_int_range (rand, 0, 4))
    {
    case 0: return g_rand_int_range (rand, -3000, 3000);
    case 1: return (WsTime) g_rand_int_range (rand, -1000, 1000) * 1000 + g_rand_int_range (rand, -1, 2);
    case 2: return g_rand_boolean (rand) ? WS_TIME_MAX / 2 - g_rand_int_range (rand, 0, 5000)
                                          : WS_TIME_MIN / 2 + g_rand_int_range (rand, 0, 5000);
    default: return (WsTime) (g_rand_double_range (rand, -1, 1) * (double) (WS_TIME_MAX / 2));
    }
}

static void
test_chrome_numbers (void)
{
  g_autoptr(GRand) rand = g_rand_new_with_seed (g_test_rand_int ());
  g_autoptr(GHashTable) expected = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_autoptr(GHashTable) written = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_autoptr(WsTrace) trace = ws_trace_new ("numbers.trace", NULL);
  g_autoptr(GOutputStream) out = g_memory_output_stream_new_resizable ();
  g_autoptr(GRegex) member = g_regex_new ("\"(ts|dur|pid|tid)\": (-?[0-9]+(\\.[0-9]+)?)", 0, 0, NULL);
  g_autoptr(GMatchInfo) match = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *text = NULL;
  guint threads[6];
  GHashTableIter iter;
  gpointer key, value;

  for (guint t = 0; t < G_N_ELEMENTS (threads); t++)
    {
      gint32 tid = g_rand_int_range (rand, 0, 3) == 0 ? G_MAXINT32 - (gint32) t : g_rand_int_range (rand, 1, 100000);
      threads[t] = ws_trace_ensure_thread (trace, tid, t % 2 == 0 ? tid : g_rand_int_range (rand, 1, 100000));
    }
  for (guint i = 0; i < 3000; i++)
    {
      static const WsEventKind kinds[] = { WS_EVENT_RUNNING, WS_EVENT_WAIT, WS_EVENT_PREEMPT, WS_EVENT_MARKER };
      WsEvent e;
      WsTime time = random_time (rand);
      WsTime duration = g_rand_int_range (rand, 0, 3) == 0 ? g_rand_int_range (rand, 0, 2000)
                                                           : (WsTime) (g_rand_double (rand) * (double) (WS_TIME_MAX / 4));
      guint thread = threads[g_rand_int_range (rand, 0, G_N_ELEMENTS (threads))];

      ws_event_init (&e, kinds[g_rand_int_range (rand, 0, G_N_ELEMENTS (kinds))], time, thread);
      ws_event_set_duration (&e, duration);
      e.flags = e.kind == WS_EVENT_RUNNING ? WS_EVENT_FLAG_SPAN : 0;
      e.state = e.kind == WS_EVENT_WAIT ? 'S' : 0;
      ws_trace_add_event (trace, &e);
    }
  ws_trace_finish (trace);

  for (guint i = 0; i < ws_trace_get_n_events (trace); i++)
    {
      const WsEvent *e = ws_trace_get_event (trace, i);
      const WsThread *t = ws_trace_get_thread (trace, e->thread);
      g_autofree char *pid = g_strdup_printf ("%d", t->pid >= 0 ? t->pid : t->tid);
      g_autofree char *tid = g_strdup_printf ("%d", t->tid);

      count_number (expected, "ts", e->time / 1000, (int) (((e->time % 1000) + 1000) % 1000));
      if (e->kind != WS_EVENT_MARKER)
        count_number (expected, "dur", MAX (ws_event_duration (e), 0) / 1000, (int) (MAX (ws_event_duration (e), 0) % 1000));
      count_value (expected, "pid", pid);
      count_value (expected, "tid", tid);
    }

  /* The metadata events, naming each thread and process, are at time 0. */
  for (guint t = 0; t < ws_trace_get_n_threads (trace); t++)
    count_number (expected, "ts", 0, 0);
  for (guint q = 0; q < ws_trace_get_n_processes (trace); q++)
    if (ws_trace_get_process (trace, q)->n_threads > 0)
      count_number (expected, "ts", 0, 0);

  g_assert_true (ws_chrome_trace_write (trace, out, NULL, &error));
  g_assert_no_error (error);
  g_assert_true (g_output_stream_write_all (out, "", 1, NULL, NULL, NULL));
  g_assert_true (g_output_stream_close (out, NULL, NULL));
  text = g_memory_output_stream_steal_data (G_MEMORY_OUTPUT_STREAM (out));
  g_regex_match (member, strstr (text, "\"traceEvents\""), 0, &match);
  for (; g_match_info_matches (match); g_match_info_next (match, NULL))
    {
      g_autofree char *name = g_match_info_fetch (match, 1);
      g_autofree char *number = g_match_info_fetch (match, 2);
      count_value (written, name, number);
    }
  g_hash_table_iter_init (&iter, expected);
  while (g_hash_table_iter_next (&iter, &key, &value))
    if (!g_str_has_prefix (key, "pid=") && !g_str_has_prefix (key, "tid="))
      g_assert_cmpint (GPOINTER_TO_INT (g_hash_table_lookup (written, key)), ==, GPOINTER_TO_INT (value));
  /* Every number written is one expected (pids and tids also name the
   * metadata's tracks, so only their values are checked). */
  g_hash_table_iter_init (&iter, written);
  while (g_hash_table_iter_next (&iter, &key, &value))
    if (!g_hash_table_contains (expected, key))
      g_error ("written but not expected: %s", (const char *) key);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/collapse/waits", test_collapse_waits);
  g_test_add_func ("/collapse/round-trip", test_round_trip);
  g_test_add_func ("/chrome/perf", test_chrome_perf);
  g_test_add_func ("/chrome/instances", test_chrome_instances);
  g_test_add_func ("/chrome/numbers", test_chrome_numbers);
  return g_test_run ();
}
