/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Loading a trace into SQLite (docs/sql.md): events per second into a
 * database in memory (what `waitscope-cli query` does before it runs the
 * statement) and into a file (`export-sqlite`), the goal being at least
 * 1 M events/s.  The peer is the sqlite3 shell importing the very same
 * rows, dumped here as CSV, into the same tables with the same pragmas
 * (`.import --csv` inside one transaction), timed from its start to its
 * exit.  The CSV is written before the clock starts, so the peer is not
 * charged for making its input, while the load is charged for reading
 * the trace model.
 *
 *   meson test -C BUILD --benchmark bench-sql-load
 *   bench-sql-load [TRACE …]   (default: pg-tpcb, build)
 */
#include "config.h"

#include <glib/gstdio.h>
#include <sys/resource.h>

#include "ws-trace-db.h"
#include "ws-trace-loader.h"

#define RUNS 5

static double
now (void)
{
  return g_get_monotonic_time () / 1e6;
}

/* CPU seconds of this process: on a machine shared with other jobs the
 * wall time says more about them than about the load. */
static double
cpu_now (void)
{
  struct rusage usage;

  getrusage (RUSAGE_SELF, &usage);
  return usage.ru_utime.tv_sec + usage.ru_stime.tv_sec + (usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6;
}

static sqlite3 *
fill_in_memory (WsTrace *trace)
{
  g_autoptr(GError) error = NULL;
  sqlite3 *db = NULL;

  /* as ws_trace_db_open_query() opens it */
  g_assert_cmpint (sqlite3_open_v2 (":memory:", &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX, NULL),
                   ==, SQLITE_OK);
  g_assert_true (ws_trace_db_fill (trace, db, NULL, NULL, NULL, &error));
  g_assert_no_error (error);
  return db;
}

/* The peer's input: one CSV per table (a header row, skipped on import)
 * and a script making the same tables with the same pragmas. */
static char *
write_peer_input (sqlite3    *db,
                  const char *dir,
                  guint64    *n_rows)
{
  g_autoptr(GString) script = g_string_new ("PRAGMA journal_mode = OFF;\nPRAGMA synchronous = OFF;\n"
                                            "PRAGMA locking_mode = EXCLUSIVE;\nPRAGMA cache_size = -65536;\nBEGIN;\n");
  g_autoptr(GString) imports = g_string_new (NULL);
  g_autoptr(GError) error = NULL;
  sqlite3_stmt *tables = NULL;
  char *path;

  *n_rows = 0;
  g_assert_cmpint (sqlite3_prepare_v2 (db, "SELECT name, sql FROM sqlite_master WHERE type = 'table' ORDER BY rowid",
                                       -1, &tables, NULL), ==, SQLITE_OK);
  while (sqlite3_step (tables) == SQLITE_ROW)
    {
      const char *name = (const char *) sqlite3_column_text (tables, 0);
      g_autofree char *select = g_strdup_printf ("SELECT * FROM %s", name);
      g_autofree char *csv_path = g_strdup_printf ("%s/%s.csv", dir, name);
      g_autoptr(GString) csv = g_string_new (NULL);

      g_string_append_printf (script, "%s;\n", (const char *) sqlite3_column_text (tables, 1));
      g_assert_true (ws_trace_db_query (db, select, NULL, WS_TRACE_DB_CSV, csv, &error));
      g_assert_true (g_file_set_contents (csv_path, csv->str, csv->len, &error));
      for (gsize i = 0; i < csv->len; i++)
        *n_rows += csv->str[i] == '\n';
      (*n_rows)--;   /* the header */
      g_string_append_printf (imports, ".import --csv --skip 1 %s %s\n", csv_path, name);
    }
  sqlite3_finalize (tables);
  g_string_append (script, imports->str);
  g_string_append (script, "COMMIT;\n");
  path = g_strdup_printf ("%s/import.sql", dir);
  g_assert_true (g_file_set_contents (path, script->str, script->len, &error));
  return path;
}

static double
children_cpu (void)
{
  struct rusage usage;

  getrusage (RUSAGE_CHILDREN, &usage);
  return usage.ru_utime.tv_sec + usage.ru_stime.tv_sec + (usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6;
}

/* Seconds the sqlite3 shell takes to run @script into @db_path (wall,
 * and CPU into @cpu), or -1. */
static double
run_peer (const char *script,
          const char *db_path,
          double     *cpu)
{
  g_autofree char *command = g_strdup_printf ("sqlite3 -bail %s < %s", db_path, script);
  g_autofree char *err = NULL;
  int status = 0;
  const char *argv[] = { "/bin/sh", "-c", command, NULL };
  double t0;

  g_unlink (db_path);
  *cpu = children_cpu ();
  t0 = now ();
  if (!g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_SEARCH_PATH | G_SPAWN_STDOUT_TO_DEV_NULL, NULL, NULL,
                     NULL, &err, &status, NULL) || !g_spawn_check_wait_status (status, NULL))
    {
      g_printerr ("sqlite3 failed: %s\n", err != NULL ? err : "");
      return -1;
    }
  *cpu = children_cpu () - *cpu;
  return now () - t0;
}

static void
bench (const char *trace_path,
       const char *dir)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(WsTrace) trace = ws_trace_loader_load (trace_path, NULL, NULL, NULL, NULL, &error);
  g_autofree char *db_path = NULL;
  g_autofree char *peer_db = NULL;
  g_autofree char *script = NULL;
  double best_memory = G_MAXDOUBLE, best_file = G_MAXDOUBLE, best_peer = G_MAXDOUBLE;
  double cpu_memory = G_MAXDOUBLE, cpu_file = G_MAXDOUBLE, cpu_peer = G_MAXDOUBLE;
  guint n_events;
  guint64 n_rows = 0;
  sqlite3 *db;
  GStatBuf st;

  g_assert_no_error (error);
  n_events = ws_trace_get_n_events (trace);
  db_path = g_strdup_printf ("%s/%s.db", dir, ws_trace_get_name (trace));
  peer_db = g_strdup_printf ("%s/%s.peer.db", dir, ws_trace_get_name (trace));

  db = fill_in_memory (trace);
  script = write_peer_input (db, dir, &n_rows);
  sqlite3_close (db);

  for (guint run = 0; run < RUNS; run++)
    {
      double t0 = now (), c0 = cpu_now (), t1, c1, t2, c2, peer;

      db = fill_in_memory (trace);
      t1 = now ();
      c1 = cpu_now ();
      sqlite3_close (db);
      t2 = now ();
      c2 = cpu_now ();
      g_assert_true (ws_trace_db_save (trace, db_path, NULL, NULL, NULL, &error));
      g_assert_no_error (error);
      best_memory = MIN (best_memory, t1 - t0);
      best_file = MIN (best_file, now () - t2);
      cpu_memory = MIN (cpu_memory, c1 - c0);
      cpu_file = MIN (cpu_file, cpu_now () - c2);
      peer = run_peer (script, peer_db, &c0);
      if (peer > 0)
        {
          best_peer = MIN (best_peer, peer);
          cpu_peer = MIN (cpu_peer, c0);
        }
    }
  g_stat (db_path, &st);

  g_print ("%s: %u events, %" G_GUINT64_FORMAT " rows in all tables, database %.1f MB\n",
           ws_trace_get_name (trace), n_events, n_rows, st.st_size / 1e6);
  g_print ("  into memory (query)      wall %.3f s  CPU %.3f s  %.2f M events/s of CPU  %.2f M rows/s\n",
           best_memory, cpu_memory, n_events / cpu_memory / 1e6, n_rows / cpu_memory / 1e6);
  g_print ("  into a file (export)     wall %.3f s  CPU %.3f s  %.2f M events/s of CPU  %.2f M rows/s\n",
           best_file, cpu_file, n_events / cpu_file / 1e6, n_rows / cpu_file / 1e6);
  if (best_peer < G_MAXDOUBLE)
    g_print ("  peer: sqlite3 .import of the same rows as CSV into a file  wall %.3f s  CPU %.3f s  %.2f M rows/s of CPU"
             "  (export is %.1f× faster in CPU, %.1f× in wall time)\n",
             best_peer, cpu_peer, n_rows / cpu_peer / 1e6, cpu_peer / cpu_file, best_peer / best_file);
  else
    g_print ("  peer: sqlite3 shell not found (tools/bootstrap.sh installs it)\n");
  /* The goal is per event; a trace of few events with deep stacks (build:
   * 4 rows per event, mostly stack frames) measures the stacks instead. */
  if (n_rows < 2 * (guint64) n_events)
    g_print ("  goal ≥ 1 M events/s of CPU: %s\n",
             n_events / cpu_memory >= 1e6 && n_events / cpu_file >= 1e6 ? "met" : "NOT MET");
  else
    g_print ("  %.1f rows per event, mostly stack frames: the goal per event does not apply\n",
             (double) n_rows / MAX (n_events, 1));
  g_unlink (db_path);
  g_unlink (peer_db);
}

int
main (int    argc,
      char **argv)
{
  g_autofree char *dir = g_dir_make_tmp ("ws-bench-sql-XXXXXX", NULL);
  g_autoptr(GPtrArray) traces = g_ptr_array_new_with_free_func (g_free);
  const char *data = g_getenv ("WS_TEST_DATA");


  for (int i = 1; i < argc; i++)
    g_ptr_array_add (traces, g_strdup (argv[i]));
  if (traces->len == 0 && data != NULL)
    {
      g_ptr_array_add (traces, g_build_filename (data, "pg-tpcb.perf.txt.gz", NULL));
      g_ptr_array_add (traces, g_build_filename (data, "build.perf.txt.gz", NULL));
    }
  for (guint i = 0; i < traces->len; i++)
    bench (traces->pdata[i], dir);
  /* the CSVs and the script */
  {
    GDir *d = g_dir_open (dir, 0, NULL);
    const char *name;

    while (d != NULL && (name = g_dir_read_name (d)) != NULL)
      {
        g_autofree char *path = g_build_filename (dir, name, NULL);
        g_unlink (path);
      }
    if (d != NULL)
      g_dir_close (d);
    g_rmdir (dir);
  }
  return 0;
}
