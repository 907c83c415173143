/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Flags survive kill -9.  A child process flags waits of a real trace one
 * after another (anomalous, normal, removed, in turn) through
 * ws_history_store_flag_wait() — what the GUI and `waitscope-cli flag`
 * call — and tells the parent each flag it committed; the parent kills it
 * with SIGKILL at a random moment, 200 times.  After every kill the
 * database must pass PRAGMA integrity_check and hold every acknowledged
 * flag (the one in flight may or may not be there: it was never
 * acknowledged).
 */
#include "config.h"

#include <glib/gstdio.h>
#include <signal.h>
#include <sqlite3.h>
#include <sys/wait.h>
#include <unistd.h>

#include "ws-anomaly-detector.h"
#include "ws-trace-loader.h"

#define N_ROUNDS 200
#define N_WAITS 50

typedef struct {
  gint64 time;
  gint32 tid;
  gint64 duration;
} Wait;

static Wait waits[N_WAITS];

static WsAnomalyFlag
verdict_of (guint op)
{
  static const WsAnomalyFlag cycle[] = { WS_ANOMALY_FLAG_ANOMALOUS, WS_ANOMALY_FLAG_NORMAL, WS_ANOMALY_FLAG_NONE };
  return cycle[(op / N_WAITS) % 3];
}

static void G_GNUC_NORETURN
child (const char *path,
       guint       first_op,
       int         fd)
{
  g_autoptr(WsHistoryStore) store = ws_history_store_open (path, NULL);

  if (store == NULL)
    _exit (3);
  for (guint op = first_op;; op++)
    {
      const Wait *w = &waits[op % N_WAITS];
      WsWaitFlag f = { (char *) "kill-test-digest", w->time, w->tid, (char *) "sig|fn", w->duration, verdict_of (op), 0 };

      if (!ws_history_store_flag_wait (store, &f, NULL))
        _exit (4);
      if (write (fd, &op, sizeof op) != sizeof op)
        _exit (5);
    }
}

static void
check (const char *path,
       guint       acked)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(WsHistoryStore) store = NULL;
  g_autoptr(GArray) flags = NULL;
  sqlite3 *db;
  sqlite3_stmt *stmt;

  g_assert_cmpint (sqlite3_open_v2 (path, &db, SQLITE_OPEN_READONLY, NULL), ==, SQLITE_OK);
  g_assert_cmpint (sqlite3_prepare_v2 (db, "PRAGMA integrity_check", -1, &stmt, NULL), ==, SQLITE_OK);
  g_assert_cmpint (sqlite3_step (stmt), ==, SQLITE_ROW);
  g_assert_cmpstr ((const char *) sqlite3_column_text (stmt, 0), ==, "ok");
  sqlite3_finalize (stmt);
  sqlite3_close (db);

  store = ws_history_store_open (path, &error);
  g_assert_no_error (error);
  flags = ws_history_store_list_wait_flags (store, NULL, &error);
  g_assert_no_error (error);
  for (guint w = 0; w < N_WAITS; w++)
    {
      WsAnomalyFlag found = WS_ANOMALY_FLAG_NONE, expected = WS_ANOMALY_FLAG_NONE, in_flight;
      gboolean touched = FALSE;

      for (guint i = 0; i < flags->len; i++)
        {
          const WsWaitFlag *f = &g_array_index (flags, WsWaitFlag, i);
          if (f->event_time == waits[w].time && f->tid == waits[w].tid)
            found = f->flag;
        }
      /* The last acknowledged op on this wait, and the one in flight. */
      for (guint op = 0; op < acked; op++)
        if (op % N_WAITS == w)
          {
            expected = verdict_of (op);
            touched = TRUE;
          }
      in_flight = acked % N_WAITS == w ? verdict_of (acked) : expected;
      if (found != expected && found != in_flight)
        g_error ("wait %u: flag %d on disk, %d acknowledged (%s)", w, found, expected,
                 touched ? "lost" : "never set");
    }
}

static void
test_kill_loop (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *trace_path = g_build_filename (g_getenv ("WS_TEST_DATA"), "py-locks.perf.txt.gz", NULL);
  g_autoptr(WsTrace) trace = ws_trace_loader_load (trace_path, NULL, NULL, NULL, NULL, &error);
  g_autofree char *dir = g_dir_make_tmp ("ws-flag-kill-XXXXXX", &error);
  g_autofree char *path = g_build_filename (dir, "history.sqlite", NULL);
  g_autoptr(GRand) rand = g_rand_new_with_seed (11);
  guint n = 0, acked = 0;

  g_assert_no_error (error);
  for (guint e = 0; e < ws_trace_get_n_events (trace) && n < N_WAITS; e++)
    {
      const WsEvent *ev = ws_trace_get_event (trace, e);
      if (ws_wait_is_scored (ev))
        waits[n++] = (Wait) { ev->time, ws_trace_get_thread (trace, ev->thread)->tid, ws_event_duration (ev) };
    }
  g_assert_cmpuint (n, ==, N_WAITS);
  g_clear_object (&trace);

  for (guint round = 0; round < N_ROUNDS; round++)
    {
      int fds[2];
      pid_t pid;
      guint want = g_rand_int_range (rand, 0, 6), got = 0, op;
      int status;

      g_assert_cmpint (pipe (fds), ==, 0);
      if ((pid = fork ()) == 0)
        {
          close (fds[0]);
          child (path, acked, fds[1]);
        }
      close (fds[1]);
      while (got < want && read (fds[0], &op, sizeof op) == sizeof op)
        {
          g_assert_cmpuint (op, ==, acked);
          acked++;
          got++;
        }
      g_usleep (g_rand_int_range (rand, 0, 3000));
      kill (pid, SIGKILL);
      waitpid (pid, &status, 0);
      g_assert_true (WIFSIGNALED (status));
      /* Acknowledgements written before the kill still count. */
      while (read (fds[0], &op, sizeof op) == sizeof op)
        {
          g_assert_cmpuint (op, ==, acked);
          acked++;
        }
      close (fds[0]);
      check (path, acked);
    }
  g_test_message ("%d kills, %u flags acknowledged, none lost", N_ROUNDS, acked);
  g_assert_cmpuint (acked, >, N_ROUNDS);
}

int
main (int argc, char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/anomaly/flags/kill-loop", test_kill_loop);
  return g_test_run ();
}
