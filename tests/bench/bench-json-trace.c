/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * JSON trace reading and writing speed, with json-glib's JsonParser on the
 * same file as the peer.  The peer only builds a document tree (it does not
 * build a WsTrace), so the ratio flatters it.
 *
 *   meson test -C BUILD --benchmark bench-json-trace
 *   bench-json-trace [TRACE.perf.txt.gz …]   (default: pg-tpcb, io-fsync)
 */
#include "config.h"

#include <glib/gstdio.h>
#include <json-glib/json-glib.h>

#include "ws-json-trace.h"
#include "ws-perf-importer.h"

#define RUNS 3

static double
now (void)
{
  return g_get_monotonic_time () / 1e6;
}

static void
bench (const char *perf_path,
       const char *tmp_dir)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(WsTrace) trace = ws_perf_importer_load (perf_path, NULL, NULL, NULL, NULL, &error);
  g_autofree char *json = NULL;
  g_autofree char *gz = NULL;
  double best_write = G_MAXDOUBLE, best_gz = G_MAXDOUBLE, best_read = G_MAXDOUBLE;
  double best_read_gz = G_MAXDOUBLE, best_peer = G_MAXDOUBLE;
  GStatBuf st, st_gz;

  g_assert_no_error (error);
  json = g_strdup_printf ("%s/%s.json", tmp_dir, ws_trace_get_name (trace));
  gz = g_strdup_printf ("%s/%s.json.gz", tmp_dir, ws_trace_get_name (trace));

  for (guint run = 0; run < RUNS; run++)
    {
      double t0 = now (), t1, t2, t3, t4, t5;
      g_autoptr(WsTrace) a = NULL;
      g_autoptr(WsTrace) b = NULL;
      g_autoptr(JsonParser) parser = json_parser_new ();

      g_assert_true (ws_json_trace_save (trace, json, NULL, &error));
      t1 = now ();
      g_assert_true (ws_json_trace_save (trace, gz, NULL, &error));
      t2 = now ();
      a = ws_json_trace_load (json, NULL, NULL, NULL, NULL, &error);
      g_assert_no_error (error);
      t3 = now ();
      b = ws_json_trace_load (gz, NULL, NULL, NULL, NULL, &error);
      g_assert_no_error (error);
      t4 = now ();
      g_assert_true (json_parser_load_from_file (parser, json, &error));
      t5 = now ();

      best_write = MIN (best_write, t1 - t0);
      best_gz = MIN (best_gz, t2 - t1);
      best_read = MIN (best_read, t3 - t2);
      best_read_gz = MIN (best_read_gz, t4 - t3);
      best_peer = MIN (best_peer, t5 - t4);
    }

  g_assert_cmpint (g_stat (json, &st), ==, 0);
  g_assert_cmpint (g_stat (gz, &st_gz), ==, 0);
  g_print ("%s: %u events, JSON %.1f MB (gzip %.2f MB), best of %d\n",
           ws_trace_get_name (trace), ws_trace_get_n_events (trace),
           st.st_size / 1e6, st_gz.st_size / 1e6, RUNS);
  g_print ("  write       %.3f s  %6.1f MB/s\n", best_write, st.st_size / 1e6 / best_write);
  g_print ("  write .gz   %.3f s\n", best_gz);
  g_print ("  read        %.3f s  %6.1f MB/s  %.2f M events/s\n", best_read,
           st.st_size / 1e6 / best_read, ws_trace_get_n_events (trace) / 1e6 / best_read);
  g_print ("  read .gz    %.3f s\n", best_read_gz);
  g_print ("  peer: json-glib JsonParser (tree only) %.3f s: waitscope reader is %.1fx faster\n",
           best_peer, best_peer / best_read);
  g_remove (json);
  g_remove (gz);
}

int
main (int argc, char *argv[])
{
  g_autofree char *tmp_dir = g_dir_make_tmp ("ws-bench-json-XXXXXX", NULL);
  const char *data = g_getenv ("WS_TEST_DATA");

  if (argc > 1)
    for (int i = 1; i < argc; i++)
      bench (argv[i], tmp_dir);
  else
    for (guint i = 0; i < 2; i++)
      {
        g_autofree char *path = g_build_filename (data, i ? "io-fsync.perf.txt.gz" : "pg-tpcb.perf.txt.gz", NULL);
        bench (path, tmp_dir);
      }

  g_rmdir (tmp_dir);
  return 0;
}
