/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * bench-history-record: what recording a trace in the history store costs
 * next to opening it, on the real traces given (pg-tpcb: 112 MB of perf
 * text, 35K finished waits).  Wall-clock seconds, best of three, into a
 * fresh store each time:
 *   - read:    the importer (ws_trace_loader_load())
 *   - digest:  the trace's identity (ws_history_store_trace_digest_full())
 *   - counts:  the call-stack counts (ws_history_store_record_trace_digest())
 *   - waits:   the wait history (ws_anomaly_record_trace())
 * The GUI used to do counts + waits in the loading thread, before showing
 * the trace; it now shows the trace first and records in a worker after
 * (ws-document.c), so "open" below is read + digest and "recording" runs
 * behind the shown document.
 */
#include "config.h"

#include <glib/gstdio.h>
#include <stdio.h>

#include "ws-anomaly-detector.h"
#include "ws-history-store.h"
#include "ws-trace-loader.h"

static double
now (void)
{
  return g_get_monotonic_time () / 1e6;
}

static void
record_once (WsTrace    *trace,
             const char *digest,
             double     *counts,
             double     *waits)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("ws-bench-record-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "history.sqlite", NULL);
  g_autofree char *wal = g_strconcat (path, "-wal", NULL);
  g_autofree char *shm = g_strconcat (path, "-shm", NULL);
  g_autoptr(WsHistoryStore) store = ws_history_store_open (path, &error);
  WsAnomalySettings settings;
  double t0;

  g_assert_no_error (error);
  ws_anomaly_settings_init (&settings);
  t0 = now ();
  g_assert_true (ws_history_store_record_trace_digest (store, trace, digest, NULL, &error));
  *counts = now () - t0;
  t0 = now ();
  g_assert_true (ws_anomaly_record_trace (store, trace, digest, &settings, NULL, NULL, &error));
  *waits = now () - t0;
  g_clear_object (&store);
  g_unlink (path);
  g_unlink (wal);
  g_unlink (shm);
  g_rmdir (dir);
}

int
main (int    argc,
      char **argv)
{
  for (int i = 1; i < argc; i++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(WsTrace) trace = NULL;
      g_autofree char *digest = NULL;
      double t0, read, digest_s = G_MAXDOUBLE, counts = G_MAXDOUBLE, waits = G_MAXDOUBLE;
      guint n_waits = 0;

      t0 = now ();
      trace = ws_trace_loader_load (argv[i], NULL, NULL, NULL, NULL, &error);
      read = now () - t0;
      if (trace == NULL)
        {
          g_printerr ("%s\n", error->message);
          return 1;
        }
      for (guint e = 0; e < ws_trace_get_n_events (trace); e++)
        n_waits += ws_wait_is_scored (ws_trace_get_event (trace, e));
      for (int r = 0; r < 3; r++)
        {
          double c, w;

          g_clear_pointer (&digest, g_free);
          t0 = now ();
          digest = ws_history_store_trace_digest_full (trace, NULL, &error);
          digest_s = MIN (digest_s, now () - t0);
          record_once (trace, digest, &c, &w);
          counts = MIN (counts, c);
          waits = MIN (waits, w);
        }
      printf ("%s: %u events, %u finished waits\n", ws_trace_get_name (trace), ws_trace_get_n_events (trace), n_waits);
      printf ("  read %.3f s, digest %.3f s, counts %.3f s, waits %.3f s\n", read, digest_s, counts, waits);
      printf ("  opening with recording in the loader (before): %.3f s\n", read + digest_s + counts + waits);
      printf ("  opening, recording after it is shown (now):    %.3f s (+ %.3f s in the background)\n",
              read + digest_s, counts + waits);
    }
  return 0;
}
