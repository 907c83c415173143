/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The history store: counts by hand, one count per trace digest, the
 * similarity weights it feeds, wait samples and anomaly flags surviving a
 * reopen, refusal of a newer schema, and a writer killed with SIGKILL in
 * the middle of its transactions leaving a consistent database.
 */
#include "config.h"

#include <glib/gstdio.h>
#include <signal.h>
#include <string.h>
#include <sqlite3.h>
#include <sys/wait.h>
#include <unistd.h>

#include "ws-error.h"
#include "ws-history-store.h"
#include "ws-trace-private.h"

typedef struct {
  char *dir;
  char *path;
} Fixture;

static void
fixture_setup (Fixture *fx, gconstpointer data)
{
  g_autoptr(GError) error = NULL;

  fx->dir = g_dir_make_tmp ("ws-history-XXXXXX", &error);
  g_assert_no_error (error);
  /* A directory that does not exist yet: open must create it. */
  fx->path = g_build_filename (fx->dir, "sub", "history.sqlite", NULL);
}

static void
fixture_teardown (Fixture *fx, gconstpointer data)
{
  g_autofree char *cmd = g_strdup_printf ("rm -rf '%s'", fx->dir);

  g_assert_cmpint (system (cmd), ==, 0);
  g_free (fx->dir);
  g_free (fx->path);
}

static WsStackId
stack (WsStackTable *table, const char *text)
{
  g_auto(GStrv) names = g_strsplit (text, " ", -1);
  WsFrameId f[32];
  guint n = 0;

  for (guint i = 0; names[i] != NULL; i++)
    f[n++] = ws_stack_table_intern_frame (table, names[i], "app");
  return ws_stack_table_intern_stack (table, f, n);
}

/*
 * Trace "t1": A B C D ×2, A C D ×1.   Trace "t2": A B A ×1.
 * Callstacks: 3 + 1 = 4.
 *   A: in 4 stacks; with a callee 2 + 1 + 1 = 4; with a caller 1 (t2)
 *   B: in 3 stacks; callee 2 (B→C) + 1 (B→A) = 3; caller 3
 *   A→B: 2 + 1 = 3;  C→D: 3;  B→A: 1
 */
static void
test_counts_by_hand (Fixture *fx, gconstpointer data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(WsHistoryStore) store = ws_history_store_open (fx->path, &error);
  g_autoptr(WsStackTable) table = ws_stack_table_new ();
  WsStackId s1[2], s2[1];
  guint64 c1[2] = { 2, 1 }, c2[1] = { 1 };
  WsFunctionCounts c;
  gboolean newly = FALSE;
  WsFrame a = { "A", "app" }, b = { "B", "app" }, d = { "D", "app" }, cc = { "C", "app" };

  g_assert_no_error (error);
  s1[0] = stack (table, "A B C D");
  s1[1] = stack (table, "A C D");
  s2[0] = stack (table, "A B A");

  g_assert_true (ws_history_store_record_stacks (store, "t1", "/x/t1", table, s1, c1, 2, &newly, &error));
  g_assert_no_error (error);
  g_assert_true (newly);
  g_assert_true (ws_history_store_record_stacks (store, "t2", NULL, table, s2, c2, 1, &newly, &error));
  g_assert_true (newly);
  /* The same digest again: counted once. */
  g_assert_true (ws_history_store_record_stacks (store, "t1", "/elsewhere", table, s1, c1, 2, &newly, &error));
  g_assert_false (newly);

  g_assert_cmpuint (ws_history_store_get_n_traces (store), ==, 2);
  g_assert_cmpuint (ws_history_store_get_n_callstacks (store), ==, 4);
  g_assert_true (ws_history_store_lookup_function (store, "A", "app", &c));
  g_assert_cmpuint (c.n_stacks, ==, 4);
  g_assert_cmpuint (c.n_with_callee, ==, 4);
  g_assert_cmpuint (c.n_with_caller, ==, 1);
  g_assert_true (ws_history_store_lookup_function (store, "B", "app", &c));
  g_assert_cmpuint (c.n_stacks, ==, 3);
  g_assert_cmpuint (c.n_with_callee, ==, 3);
  g_assert_cmpuint (c.n_with_caller, ==, 3);
  g_assert_false (ws_history_store_lookup_function (store, "A", "other", &c));
  g_assert_cmpuint (ws_history_store_lookup_bigram (store, &a, &b), ==, 3);
  g_assert_cmpuint (ws_history_store_lookup_bigram (store, &cc, &d), ==, 3);
  g_assert_cmpuint (ws_history_store_lookup_bigram (store, &b, &a), ==, 1);
  g_assert_cmpuint (ws_history_store_lookup_bigram (store, &d, &a), ==, 0);

  /* Reopen: everything was committed. */
  g_clear_object (&store);
  store = ws_history_store_open (fx->path, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (ws_history_store_get_n_callstacks (store), ==, 4);
  g_assert_true (ws_history_store_has_trace (store, "t2"));
  g_assert_false (ws_history_store_has_trace (store, "t3"));
}

/*
 * The by-hand example again (t1: A B C D ×2, A C D ×1; t2: A B A ×1):
 * 4 functions, 5 distinct pairs (A→B, B→C, C→D, A→C, B→A), 4 callstacks.
 * In-stack counts A 4, B 3, C 3, D 3: A first, then the ties by name.
 * Plus 4 wait samples of 2 signatures and 2 flags.
 */
static void
test_stats_and_top (Fixture *fx, gconstpointer data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(WsHistoryStore) store = ws_history_store_open (fx->path, &error);
  g_autoptr(WsStackTable) table = ws_stack_table_new ();
  g_autoptr(GArray) top = NULL;
  WsStackId s1[2], s2[1];
  guint64 c1[2] = { 2, 1 }, c2[1] = { 1 };
  gint64 d[3] = { 1, 2, 3 };
  WsHistoryStats st;
  const char *expected[] = { "A", "B", "C", "D" };
  guint64 expected_n[] = { 4, 3, 3, 3 };

  g_assert_no_error (error);

  /* Empty. */
  g_assert_true (ws_history_store_get_stats (store, &st, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (st.n_traces, ==, 0);
  g_assert_cmpuint (st.n_callstacks, ==, 0);
  g_assert_cmpuint (st.n_functions, ==, 0);
  top = ws_history_store_top_functions (store, 10, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (top->len, ==, 0);
  g_clear_pointer (&top, g_array_unref);

  s1[0] = stack (table, "A B C D");
  s1[1] = stack (table, "A C D");
  s2[0] = stack (table, "A B A");
  g_assert_true (ws_history_store_record_stacks (store, "t1", NULL, table, s1, c1, 2, NULL, &error));
  g_assert_true (ws_history_store_record_stacks (store, "t2", NULL, table, s2, c2, 1, NULL, &error));
  g_assert_true (ws_history_store_record_stacks (store, "t1", NULL, table, s1, c1, 2, NULL, &error));
  g_assert_true (ws_history_store_add_wait_samples (store, "lock", "t1", d, 3, &error));
  g_assert_true (ws_history_store_add_wait_samples (store, "io", "t2", d, 1, &error));
  g_assert_true (ws_history_store_set_flag (store, "t1", 10, 1, "lock", WS_ANOMALY_FLAG_ANOMALOUS, &error));
  g_assert_true (ws_history_store_set_flag (store, "t1", 20, 1, "lock", WS_ANOMALY_FLAG_NORMAL, &error));
  g_assert_no_error (error);

  g_assert_true (ws_history_store_get_stats (store, &st, &error));
  g_assert_cmpuint (st.n_traces, ==, 2);
  g_assert_cmpuint (st.n_callstacks, ==, 4);
  g_assert_cmpuint (st.n_functions, ==, 4);
  g_assert_cmpuint (st.n_bigrams, ==, 5);
  g_assert_cmpuint (st.n_wait_samples, ==, 4);
  g_assert_cmpuint (st.n_wait_signatures, ==, 2);
  g_assert_cmpuint (st.n_flags, ==, 2);

  top = ws_history_store_top_functions (store, 0, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (top->len, ==, 4);
  for (guint i = 0; i < 4; i++)
    {
      const WsHistoryFunction *f = &g_array_index (top, WsHistoryFunction, i);
      g_assert_cmpstr (f->function, ==, expected[i]);
      g_assert_cmpstr (f->module, ==, "app");
      g_assert_cmpuint (f->counts.n_stacks, ==, expected_n[i]);
    }
  /* A's other counts, as in counts-by-hand. */
  g_assert_cmpuint (g_array_index (top, WsHistoryFunction, 0).counts.n_with_callee, ==, 4);
  g_assert_cmpuint (g_array_index (top, WsHistoryFunction, 0).counts.n_with_caller, ==, 1);
  g_clear_pointer (&top, g_array_unref);

  top = ws_history_store_top_functions (store, 2, &error);
  g_assert_cmpuint (top->len, ==, 2);
  g_assert_cmpstr (g_array_index (top, WsHistoryFunction, 1).function, ==, "B");
}

/* A file's digest is the SHA-256 of its bytes (FIPS 180-2's "abc"). */
static void
test_file_digest (Fixture *fx, gconstpointer data)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *file = g_build_filename (fx->dir, "abc.txt", NULL);
  g_autofree char *missing = g_build_filename (fx->dir, "missing.txt", NULL);
  g_autofree char *digest = NULL;

  g_assert_true (g_file_set_contents (file, "abc", 3, &error));
  digest = ws_history_store_file_digest (file, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (digest, ==, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  g_assert_null (ws_history_store_file_digest (missing, &error));
  g_assert_error (error, WS_ERROR, WS_ERROR_IO);
  g_assert_nonnull (strstr (error->message, missing));
}

/* The same digest as GLib's own SHA-256 (an independent implementation)
 * for files of random bytes and sizes around the 1 MiB read chunk. */
static void
test_file_digest_sizes (Fixture *fx, gconstpointer data)
{
  static const gsize sizes[] = { 0, 1, 55, 56, 64, 4095, (1 << 20) - 1, 1 << 20, (1 << 20) + 1, 3 * (1 << 20) + 17 };
  g_autoptr(GRand) rand = g_rand_new_with_seed (3);

  for (guint i = 0; i < G_N_ELEMENTS (sizes); i++)
    {
      g_autoptr(GError) error = NULL;
      g_autofree char *file = g_build_filename (fx->dir, "random.bin", NULL);
      g_autofree guchar *bytes = g_malloc (sizes[i] + 1);
      g_autofree char *digest = NULL;
      g_autofree char *expected = NULL;

      for (gsize k = 0; k < sizes[i]; k++)
        bytes[k] = g_rand_int (rand) & 0xff;
      g_assert_true (g_file_set_contents (file, (const char *) bytes, sizes[i], &error));
      expected = g_compute_checksum_for_data (G_CHECKSUM_SHA256, bytes, sizes[i]);
      digest = ws_history_store_file_digest (file, &error);
      g_assert_no_error (error);
      g_assert_cmpstr (digest, ==, expected);
    }
}

/* The weights a model gets from the store, in another stack table (frames
 * are matched by name and module, not by id). */
static void
test_fill_similarity (Fixture *fx, gconstpointer data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(WsHistoryStore) store = ws_history_store_open (fx->path, &error);
  g_autoptr(WsStackTable) table = ws_stack_table_new ();
  g_autoptr(WsStackTable) other = ws_stack_table_new ();
  g_autoptr(WsSimilarity) sim = ws_similarity_new (other);
  WsStackId s[3];
  guint64 counts[3] = { 2, 1, 1 };
  WsFrameId f[4];

  s[0] = stack (table, "A B C D");
  s[1] = stack (table, "A C D");
  s[2] = stack (table, "A B A");
  g_assert_true (ws_history_store_record_stacks (store, "t", NULL, table, s, counts, 3, NULL, &error));

  f[0] = ws_stack_table_intern_frame (other, "D", "app");
  f[1] = ws_stack_table_intern_frame (other, "B", "app");
  f[2] = ws_stack_table_intern_frame (other, "A", "app");
  f[3] = ws_stack_table_intern_frame (other, "never", "app");
  g_assert_true (ws_history_store_fill_similarity (store, sim, f, 4, &error));
  g_assert_no_error (error);

  g_assert_cmpuint (ws_similarity_get_n_callstacks (sim), ==, 4);
  g_assert_cmpfloat_with_epsilon (ws_similarity_uni (sim, f[2]), 0.0, 1e-12);          /* A in 4/4 */
  g_assert_cmpfloat_with_epsilon (ws_similarity_uni (sim, f[1]), 0.25, 1e-12);         /* B in 3/4 */
  g_assert_cmpfloat_with_epsilon (ws_similarity_uni (sim, f[3]), 1.0, 1e-12);          /* never seen */
  g_assert_cmpfloat_with_epsilon (ws_similarity_fbi (sim, f[2], f[1]), 1.0 - 3.0 / 4, 1e-12);
  g_assert_cmpfloat_with_epsilon (ws_similarity_bbi (sim, f[2], f[1]), 0.0, 1e-12);    /* B's 3 callers are all A */
  g_assert_cmpfloat_with_epsilon (ws_similarity_fbi (sim, f[1], f[2]), 1.0 - 1.0 / 3, 1e-12);
}

static WsEvent
event (guint32 thread, WsTime t, WsTime d, WsEventKind kind, WsStackId s, guint8 flags)
{
  WsEvent e;

  ws_event_init (&e, kind, t, thread);
  if (d != 0)
    ws_event_set_duration (&e, d);
  e.stack = s;
  e.flags = flags;
  return e;
}

/* record_trace counts waits and sampled running stacks only, once per
 * trace content. */
static void
test_record_trace (Fixture *fx, gconstpointer data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(WsHistoryStore) store = ws_history_store_open (fx->path, &error);
  g_autoptr(WsTrace) trace = ws_trace_new (NULL, NULL);
  g_autoptr(WsTrace) again = ws_trace_new (NULL, NULL);
  g_autofree char *d1 = NULL, *d2 = NULL;
  WsTrace *traces[2] = { trace, again };
  WsFunctionCounts c;
  gboolean newly;

  for (guint k = 0; k < 2; k++)
    {
      WsTrace *t = traces[k];
      WsStackTable *table = ws_trace_get_stack_table (t);
      guint th = ws_trace_ensure_thread (t, 100, 100);
      WsEvent e;

      e = event (th, 10, 5, WS_EVENT_WAIT, stack (table, "main wait"), 0);
      ws_trace_add_event (t, &e);
      e = event (th, 20, 1, WS_EVENT_RUNNING, stack (table, "main work"), 0);
      ws_trace_add_event (t, &e);
      e = event (th, 30, 9, WS_EVENT_RUNNING, stack (table, "main span"), WS_EVENT_FLAG_SPAN);
      ws_trace_add_event (t, &e);
      e = event (th, 40, 0, WS_EVENT_UNWAIT, stack (table, "main wake"), 0);
      ws_trace_add_event (t, &e);
      e = event (th, 50, 3, WS_EVENT_WAIT, WS_STACK_EMPTY, 0);
      ws_trace_add_event (t, &e);
      ws_trace_finish (t);
    }

  d1 = ws_history_store_trace_digest (trace, &error);
  d2 = ws_history_store_trace_digest (again, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (d1, ==, d2);   /* same content, separately built */
  g_assert_cmpuint (strlen (d1), ==, 64);

  g_assert_true (ws_history_store_record_trace (store, trace, &newly, &error));
  g_assert_true (newly);
  g_assert_true (ws_history_store_record_trace (store, again, &newly, &error));
  g_assert_false (newly);

  g_assert_cmpuint (ws_history_store_get_n_callstacks (store), ==, 2);   /* the wait and the sample */
  g_assert_true (ws_history_store_lookup_function (store, "main", "app", &c));
  g_assert_cmpuint (c.n_stacks, ==, 2);
  g_assert_true (ws_history_store_lookup_function (store, "work", "app", &c));
  g_assert_false (ws_history_store_lookup_function (store, "span", "app", &c));
  g_assert_false (ws_history_store_lookup_function (store, "wake", "app", &c));
}

static void
test_samples_and_flags (Fixture *fx, gconstpointer data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(WsHistoryStore) store = ws_history_store_open (fx->path, &error);
  g_autoptr(GArray) samples = NULL;
  g_autoptr(GArray) flags = NULL;
  gint64 d1[3] = { 100, 200, 300 }, d2[1] = { 7 };

  g_assert_true (ws_history_store_add_wait_samples (store, "lock:ProcSleep", "dig", d1, 3, &error));
  g_assert_true (ws_history_store_add_wait_samples (store, "io:fdatasync", NULL, d2, 1, &error));
  g_assert_true (ws_history_store_add_wait_samples (store, "lock:ProcSleep", "dig2", d2, 1, &error));
  g_assert_true (ws_history_store_set_flag (store, "dig", 1000, 42, "lock:ProcSleep", WS_ANOMALY_FLAG_ANOMALOUS, &error));
  g_assert_true (ws_history_store_set_flag (store, "dig", 2000, 42, "lock:ProcSleep", WS_ANOMALY_FLAG_NORMAL, &error));
  g_assert_true (ws_history_store_set_flag (store, "dig", 3000, 43, "io:fdatasync", WS_ANOMALY_FLAG_ANOMALOUS, &error));
  /* Changing one's mind overwrites; NONE removes. */
  g_assert_true (ws_history_store_set_flag (store, "dig", 2000, 42, "lock:ProcSleep", WS_ANOMALY_FLAG_ANOMALOUS, &error));
  g_assert_true (ws_history_store_set_flag (store, "dig", 3000, 43, "io:fdatasync", WS_ANOMALY_FLAG_NONE, &error));
  g_assert_no_error (error);

  g_clear_object (&store);
  store = ws_history_store_open (fx->path, &error);
  g_assert_no_error (error);

  samples = ws_history_store_get_wait_samples (store, "lock:ProcSleep", &error);
  g_assert_cmpuint (samples->len, ==, 4);
  g_assert_cmpint (g_array_index (samples, gint64, 0), ==, 100);
  g_assert_cmpint (g_array_index (samples, gint64, 3), ==, 7);

  g_assert_cmpint (ws_history_store_get_flag (store, "dig", 1000, 42), ==, WS_ANOMALY_FLAG_ANOMALOUS);
  g_assert_cmpint (ws_history_store_get_flag (store, "dig", 2000, 42), ==, WS_ANOMALY_FLAG_ANOMALOUS);
  g_assert_cmpint (ws_history_store_get_flag (store, "dig", 3000, 43), ==, WS_ANOMALY_FLAG_NONE);
  g_assert_cmpint (ws_history_store_get_flag (store, "dig", 1000, 99), ==, WS_ANOMALY_FLAG_NONE);
  flags = ws_history_store_list_flags (store, "lock:ProcSleep", &error);
  g_assert_cmpuint (flags->len, ==, 2);
  g_assert_cmpint (g_array_index (flags, WsAnomalyRecord, 0).tid, ==, 42);
  g_clear_pointer (&flags, g_array_unref);
  flags = ws_history_store_list_flags (store, NULL, &error);
  g_assert_cmpuint (flags->len, ==, 2);
}

static void
test_newer_schema_refused (Fixture *fx, gconstpointer data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(WsHistoryStore) store = ws_history_store_open (fx->path, &error);
  WsHistoryStore *again;
  sqlite3 *db;

  g_assert_no_error (error);
  g_clear_object (&store);

  g_assert_cmpint (sqlite3_open (fx->path, &db), ==, SQLITE_OK);
  g_assert_cmpint (sqlite3_exec (db, "PRAGMA user_version = 99", NULL, NULL, NULL), ==, SQLITE_OK);
  sqlite3_close (db);

  again = ws_history_store_open (fx->path, &error);
  g_assert_null (again);
  g_assert_error (error, WS_ERROR, WS_ERROR_INVALID);
  g_assert_nonnull (strstr (error->message, fx->path));
}

static void
test_default_path (void)
{
  g_autofree char *saved = g_strdup (g_getenv ("WAITSCOPE_HISTORY"));
  g_autofree char *p1 = NULL, *p2 = NULL, *expected = NULL;

  g_setenv ("WAITSCOPE_HISTORY", "/tmp/somewhere/h.sqlite", TRUE);
  p1 = ws_history_store_default_path ();
  g_assert_cmpstr (p1, ==, "/tmp/somewhere/h.sqlite");
  g_unsetenv ("WAITSCOPE_HISTORY");
  p2 = ws_history_store_default_path ();
  expected = g_build_filename (g_get_user_data_dir (), "waitscope", "history.sqlite", NULL);
  g_assert_cmpstr (p2, ==, expected);
  if (saved)
    g_setenv ("WAITSCOPE_HISTORY", saved, TRUE);
}

/*
 * Crash safety.  A child records trace after trace (each 300 stacks of 40
 * frames, several milliseconds of writing per transaction) after saving a
 * flag; the parent kills it with SIGKILL at a random moment, three times.
 * The database must pass integrity_check, keep the flag, and every trace
 * must be all there or not at all: the callstack total equals the sum of
 * the recorded traces', and each function's count equals its per-trace
 * count times the number of traces.
 */
#define KILL_STACKS 300
#define KILL_DEPTH 40

static void
child_writer (const char *path, guint round)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(WsHistoryStore) store = ws_history_store_open (path, &error);
  g_autoptr(WsStackTable) table = ws_stack_table_new ();
  WsStackId stacks[KILL_STACKS];
  guint64 counts[KILL_STACKS];

  if (store == NULL)
    _exit (3);
  if (!ws_history_store_set_flag (store, "crash", round, 1, "sig", WS_ANOMALY_FLAG_ANOMALOUS, NULL))
    _exit (4);

  for (guint s = 0; s < KILL_STACKS; s++)
    {
      WsFrameId f[KILL_DEPTH];

      for (guint k = 0; k < KILL_DEPTH; k++)
        {
          g_autofree char *name = g_strdup_printf ("fn_%u_%u", k, (s * 7 + k) % 50);
          f[k] = ws_stack_table_intern_frame (table, name, "app");
        }
      stacks[s] = ws_stack_table_intern_stack (table, f, KILL_DEPTH);
      counts[s] = 1;
    }

  for (guint i = 0; i < 100000; i++)
    {
      g_autofree char *digest = g_strdup_printf ("round%u-trace%u", round, i);

      if (!ws_history_store_record_stacks (store, digest, NULL, table, stacks, counts, KILL_STACKS, NULL, NULL))
        _exit (5);
    }
  _exit (0);
}

static void
test_killed_writer (Fixture *fx, gconstpointer data)
{
  g_autoptr(GRand) rand = g_rand_new_with_seed (5);

  for (guint round = 0; round < 3; round++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(WsHistoryStore) store = NULL;
      pid_t pid;
      int status;
      guint before = 0;
      sqlite3 *db;
      sqlite3_stmt *stmt;
      gint64 n_traces, sum_traces, total;
      WsFunctionCounts c;

      store = ws_history_store_open (fx->path, &error);
      g_assert_no_error (error);
      before = ws_history_store_get_n_traces (store);

      pid = fork ();
      g_assert_cmpint (pid, >=, 0);
      if (pid == 0)
        child_writer (fx->path, round);

      /* Let it record a few traces, then kill it at a random moment. */
      for (guint waited = 0; ws_history_store_get_n_traces (store) < before + 3 && waited < 3000; waited++)
        g_usleep (2000);
      g_usleep (g_rand_int_range (rand, 0, 20000));
      g_assert_cmpint (kill (pid, SIGKILL), ==, 0);
      g_assert_cmpint (waitpid (pid, &status, 0), ==, pid);
      g_assert_true (WIFSIGNALED (status));
      g_clear_object (&store);

      g_assert_cmpint (sqlite3_open (fx->path, &db), ==, SQLITE_OK);
      g_assert_cmpint (sqlite3_prepare_v2 (db, "PRAGMA integrity_check", -1, &stmt, NULL), ==, SQLITE_OK);
      g_assert_cmpint (sqlite3_step (stmt), ==, SQLITE_ROW);
      g_assert_cmpstr ((const char *) sqlite3_column_text (stmt, 0), ==, "ok");
      sqlite3_finalize (stmt);
      g_assert_cmpint (sqlite3_prepare_v2 (db, "SELECT COUNT(*), SUM(n_callstacks) FROM traces", -1, &stmt, NULL), ==, SQLITE_OK);
      g_assert_cmpint (sqlite3_step (stmt), ==, SQLITE_ROW);
      n_traces = sqlite3_column_int64 (stmt, 0);
      sum_traces = sqlite3_column_int64 (stmt, 1);
      sqlite3_finalize (stmt);
      sqlite3_close (db);

      store = ws_history_store_open (fx->path, &error);
      g_assert_no_error (error);
      total = ws_history_store_get_n_callstacks (store);
      g_assert_cmpint (n_traces, >=, before + 3);
      g_assert_cmpint (sum_traces, ==, n_traces * KILL_STACKS);
      g_assert_cmpint (total, ==, sum_traces);
      /* fn_0_0 is the root of the stacks with s ≡ 0 (mod 50): 6 per trace. */
      g_assert_true (ws_history_store_lookup_function (store, "fn_0_0", "app", &c));
      g_assert_cmpuint (c.n_stacks, ==, (guint64) n_traces * 6);
      g_assert_cmpint (ws_history_store_get_flag (store, "crash", round, 1), ==, WS_ANOMALY_FLAG_ANOMALOUS);
    }
}

typedef struct {
  const char *path;
} OpenJob;

static GMutex open_lock;
static GCond  open_cond;
static guint  open_waiting;

static gpointer
open_in_thread (gpointer data)
{
  OpenJob *job = data;
  WsHistoryStore *store;
  GError *error = NULL;

  /* Both threads start together, as the window's recording thread and
   * the window itself did. */
  g_mutex_lock (&open_lock);
  if (++open_waiting % 2 == 0)
    g_cond_broadcast (&open_cond);
  else
    while (open_waiting % 2 != 0)
      g_cond_wait (&open_cond, &open_lock);
  g_mutex_unlock (&open_lock);
  store = ws_history_store_open (job->path, &error);
  if (store == NULL)
    return error;
  g_object_unref (store);
  return NULL;
}

/* Two connections setting up one new file at once: before the version
 * was read inside the write transaction, the second ran the migration
 * again and failed on "duplicate column name: slot" (test-gui-anomaly
 * crashed on it under load). */
static void
test_open_concurrently (void)
{
  g_autofree char *dir = g_dir_make_tmp ("ws-history-race-XXXXXX", NULL);

  for (guint round = 0; round < 40; round++)
    {
      g_autofree char *name = g_strdup_printf ("h%u.sqlite", round);
      g_autofree char *path = g_build_filename (dir, name, NULL);
      OpenJob job = { path };
      GThread *a = g_thread_new ("open-a", open_in_thread, &job);
      GThread *b = g_thread_new ("open-b", open_in_thread, &job);
      GError *ea = g_thread_join (a), *eb = g_thread_join (b);

      g_assert_no_error (ea);
      g_assert_no_error (eb);
      g_remove (path);
      for (const char *const *ext = (const char *const[]) { "-wal", "-shm", NULL }; *ext; ext++)
        {
          g_autofree char *side = g_strconcat (path, *ext, NULL);
          g_remove (side);
        }
    }
  g_rmdir (dir);
}

int
main (int argc, char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/history-store/open-concurrently", test_open_concurrently);
  g_test_add ("/history-store/counts-by-hand", Fixture, NULL, fixture_setup, test_counts_by_hand, fixture_teardown);
  g_test_add ("/history-store/stats-and-top", Fixture, NULL, fixture_setup, test_stats_and_top, fixture_teardown);
  g_test_add ("/history-store/file-digest", Fixture, NULL, fixture_setup, test_file_digest, fixture_teardown);
  g_test_add ("/history-store/file-digest-sizes", Fixture, NULL, fixture_setup, test_file_digest_sizes, fixture_teardown);
  g_test_add ("/history-store/fill-similarity", Fixture, NULL, fixture_setup, test_fill_similarity, fixture_teardown);
  g_test_add ("/history-store/record-trace", Fixture, NULL, fixture_setup, test_record_trace, fixture_teardown);
  g_test_add ("/history-store/samples-and-flags", Fixture, NULL, fixture_setup, test_samples_and_flags, fixture_teardown);
  g_test_add ("/history-store/newer-schema-refused", Fixture, NULL, fixture_setup, test_newer_schema_refused, fixture_teardown);
  g_test_add_func ("/history-store/default-path", test_default_path);
  g_test_add ("/history-store/killed-writer", Fixture, NULL, fixture_setup, test_killed_writer, fixture_teardown);

  return g_test_run ();
}
