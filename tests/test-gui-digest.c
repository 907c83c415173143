/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * A digest opened in the real window (as File → Open, drag and drop and the
 * command line open it: ws_window_open_file()): the merged digest of six
 * runs of the recorded fleet opens as a fleet, the Mining page mines it at
 * once, and its first row — the costliest cluster and its costliest
 * pattern — and its counts are what `waitscope-cli cluster --json` prints
 * over the same digest with the same settings.  Where the timeline would
 * be, the window says a digest holds no events; opening a trace then puts
 * the timeline back.  Screenshots at 1280×720 and 1920×1080.
 */
#include "config.h"

#include <glib/gstdio.h>
#include <json-glib/json-glib.h>
#include <string.h>

#include "ws-application.h"
#include "ws-cli-test-util.h"
#include "ws-gui-test-util.h"
#include "ws-contrast-page.h"
#include "ws-window.h"

#define LAMBDA    1000000   /* 1 ms */
#define THRESHOLD 0.5

static WsApplication *the_app;

static char *
cli_ok (const char *first, ...) G_GNUC_NULL_TERMINATED;

static char *
cli_ok (const char *first, ...)
{
  g_auto(WsCliRun) run = { 0 };
  va_list args;

  va_start (args, first);
  ws_cli_run_valist (&run, NULL, first, args);
  va_end (args);
  if (run.status != 0)
    g_error ("waitscope-cli %s: exit %d: %s", first, run.status, run.err);
  return g_steal_pointer (&run.out);
}

static gboolean
mined (gpointer data)
{
  return !ws_gui_test_mining_busy (data) && ws_gui_test_mining_cluster_set (data) != NULL;
}

static gboolean
no_events_shown (gpointer data)
{
  return ws_gui_test_find_label_containing (data, "A digest holds no events") != NULL;
}

static gboolean
contrasted (gpointer data)
{
  return !ws_contrast_page_get_busy (data) && ws_contrast_page_get_result (data) != NULL;
}

/* The Contrast page over the digest: run 1 fast, the others slow (the
 * page's default), against `contrast --json` over the same digest with the
 * classes naming its traces. */
static void
check_contrast (WsWindow  *window,
                const char *fleet,
                GPtrArray  *traces)
{
  WsContrastPage *page = WS_CONTRAST_PAGE (ws_gui_test_find_child (GTK_WIDGET (window), WS_TYPE_CONTRAST_PAGE));
  g_autoptr(GStrvBuilder) args = g_strv_builder_new ();
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) error = NULL;
  g_auto(GStrv) argv = NULL;
  g_auto(WsCliRun) run = { 0 };
  WsContrastResult *result;
  const WsContrastPattern *p;
  JsonObject *cli, *first;

  ws_window_show_details_page (window, "contrast");
  ws_contrast_page_run (page);
  ws_gui_test_wait_until (contrasted, page, 120, "the fleet contrasted");
  result = ws_contrast_page_get_result (page);

  g_strv_builder_add_many (args, "contrast", "--json", "--fast", g_ptr_array_index (traces, 0), NULL);
  for (guint i = 1; i < traces->len; i++)
    g_strv_builder_add_many (args, "--slow", g_ptr_array_index (traces, i), NULL);
  g_strv_builder_add (args, fleet);
  argv = g_strv_builder_end (args);
  ws_cli_run_argv (&run, NULL, (const char * const *) argv);
  g_assert_cmpint (run.status, ==, 0);
  g_assert_true (json_parser_load_from_data (parser, run.out, -1, &error));
  g_assert_no_error (error);
  cli = json_node_get_object (json_parser_get_root (parser));
  g_assert_cmpint (json_object_get_int_member (cli, "patterns_total"), ==, ws_contrast_result_get_n_patterns (result));
  g_assert_cmpint (json_object_get_int_member (cli, "slow_component_cost"), ==,
                   ws_contrast_result_get_total_cost (result));
  g_assert_cmpuint (ws_contrast_result_get_n_patterns (result), >, 0);
  first = json_array_get_object_element (json_object_get_array_member (cli, "patterns"), 0);
  p = ws_contrast_result_get_pattern (result, 0);
  g_assert_cmpint (json_object_get_int_member (first, "c"), ==, p->c);
  g_assert_cmpint (json_object_get_int_member (first, "n"), ==, (gint64) p->n);
  g_test_message ("GUI and CLI contrast over the digest: %u patterns, the first C %" G_GINT64_FORMAT " ns, N %"
                  G_GUINT64_FORMAT, ws_contrast_result_get_n_patterns (result), p->c, p->n);
  ws_contrast_page_select_pattern (page, 0);
}

static void
test_open_digest (void)
{
  g_autofree char *dir = g_dir_make_tmp ("ws-gui-digest-XXXXXX", NULL);
  g_autofree char *digests = g_build_filename (dir, "d", NULL);
  g_autofree char *fleet = g_build_filename (dir, "fleet.wsdigest", NULL);
  g_autofree char *history = g_build_filename (dir, "history.sqlite", NULL);
  g_autofree char *lambda = g_strdup_printf ("%dns", LAMBDA);
  g_autofree char *threshold = g_strdup_printf ("%g", THRESHOLD);
  g_autoptr(GPtrArray) runs = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GPtrArray) traces = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) error = NULL;
  g_autoptr(GFile) file = g_file_new_for_path (fleet);
  g_autofree char *out = NULL;
  JsonObject *cli, *first_cluster, *first_pattern;
  WsClusterSet *clusters;
  WsPatternSet *set;
  WsStackDb *db;
  const WsCluster *cl;
  const WsPattern *p;
  JsonArray *frames;
  WsMiningPage *page;
  WsWindow *window;

  if (g_getenv ("WS_CLI") == NULL)
    {
      g_test_skip ("WS_CLI is not set");
      return;
    }
  /* The map and the partial reduce, by the CLI. */
  for (guint i = 1; i <= 6; i++)
    {
      g_autofree char *name = g_strdup_printf ("run-%02u.perf.txt.gz", i);
      g_autofree char *trace = g_build_filename (g_getenv ("WS_TEST_DATA"), "fleet", name, NULL);
      g_autofree char *written = cli_ok ("digest", "-o", digests, trace, NULL);

      g_ptr_array_add (runs, g_strdup (g_strstrip (written)));
      g_ptr_array_add (traces, g_steal_pointer (&trace));
    }
  {
    g_autoptr(GStrvBuilder) args = g_strv_builder_new ();
    g_auto(GStrv) argv = NULL;
    g_auto(WsCliRun) run = { 0 };

    g_strv_builder_add_many (args, "digest-merge", "-o", fleet, NULL);
    for (guint i = 0; i < runs->len; i++)
      g_strv_builder_add (args, g_ptr_array_index (runs, i));
    argv = g_strv_builder_end (args);
    ws_cli_run_argv (&run, NULL, (const char * const *) argv);
    g_assert_cmpint (run.status, ==, 0);
  }

  /* The window, its Mining settings fixed, then the digest opened. */
  window = ws_gui_test_new_mining_window (the_app, history, LAMBDA, THRESHOLD);
  page = ws_window_get_mining_page (window);
  g_assert_null (ws_window_open_file (window, file));
  ws_gui_test_wait_until (no_events_shown, window, 30, "the digest's status page");
  ws_gui_test_wait_until (mined, page, 120, "the fleet mined");
  g_test_message ("mined: %s", ws_gui_test_mining_status (page));

  /* The CLI over the same digest, with the store the GUI recorded into. */
  out = cli_ok ("cluster", fleet, "--lambda", lambda, "--threshold", threshold, "--history", history,
                "--top", "0", "--json", NULL);
  g_assert_true (json_parser_load_from_data (parser, out, -1, &error));
  g_assert_no_error (error);
  cli = json_node_get_object (json_parser_get_root (parser));
  clusters = ws_gui_test_mining_cluster_set (page);
  set = ws_cluster_set_get_pattern_set (clusters);
  db = ws_pattern_set_get_stack_db (set);
  g_assert_cmpint (json_object_get_int_member (cli, "streams"), ==, 6);
  g_assert_cmpint (json_object_get_int_member (cli, "streams"), ==, ws_stack_db_get_n_streams (db));
  g_assert_cmpint (json_object_get_int_member (cli, "total_cost"), ==, ws_stack_db_get_total_cost (db));
  g_assert_cmpint (json_object_get_int_member (cli, "n_patterns"), ==, ws_pattern_set_get_n_patterns (set));
  g_assert_cmpint (json_object_get_int_member (cli, "n_clusters"), ==, ws_cluster_set_get_n_clusters (clusters));
  g_assert_cmpuint (ws_cluster_set_get_n_clusters (clusters), >, 0);

  /* The first row: the top cluster and its costliest pattern, frame by frame. */
  first_cluster = json_array_get_object_element (json_object_get_array_member (cli, "clusters"), 0);
  cl = ws_cluster_set_get_cluster (clusters, 0);
  g_assert_cmpint (json_object_get_int_member (first_cluster, "total_cost"), ==, cl->total_cost);
  g_assert_cmpint (json_object_get_int_member (first_cluster, "streams"), ==, cl->n_streams);
  g_assert_cmpint (json_object_get_int_member (first_cluster, "events"), ==, cl->n_events);
  first_pattern = json_array_get_object_element (json_object_get_array_member (first_cluster, "patterns"), 0);
  p = ws_pattern_set_get_pattern (set, cl->patterns[0]);
  g_assert_cmpint (json_object_get_int_member (first_pattern, "cost"), ==, p->cost);
  frames = json_object_get_array_member (first_pattern, "frames");
  g_assert_cmpuint (json_array_get_length (frames), ==, p->n_frames);
  for (guint k = 0; k < p->n_frames; k++)
    {
      g_autofree char *frame = ws_stack_table_format_frame (ws_stack_db_get_stack_table (db), p->frames[k]);
      g_assert_cmpstr (json_array_get_string_element (frames, k), ==, frame);
    }
  g_test_message ("GUI and CLI over the digest: %u patterns in %u clusters; first row %s…",
                  ws_pattern_set_get_n_patterns (set), ws_cluster_set_get_n_clusters (clusters),
                  json_array_get_string_element (frames, 0));

  g_object_unref (ws_gui_test_screenshot (GTK_WIDGET (window), "digest-fleet-1280x720.png"));
  ws_gui_test_resize_and_wait (window, 1920, 1080);
  g_object_unref (ws_gui_test_screenshot (GTK_WIDGET (window), "digest-fleet-1920x1080.png"));

  check_contrast (window, fleet, traces);
  g_object_unref (ws_gui_test_screenshot (GTK_WIDGET (window), "digest-contrast-1920x1080.png"));
  ws_gui_test_resize_and_wait (window, 1280, 720);
  g_object_unref (ws_gui_test_screenshot (GTK_WIDGET (window), "digest-contrast-1280x720.png"));

  /* A trace opened: the timeline is back, and nothing said of a digest. */
  ws_gui_test_open_trace (window, "py-locks.perf.txt.gz");
  ws_gui_test_settle (GTK_WIDGET (window));
  g_assert_null (ws_gui_test_find_label_containing (GTK_WIDGET (window), "A digest holds no events"));

  ws_gui_test_close_window (GTK_WIDGET (window));
}

/* A bad digest: a dialog naming the file and the place, no crash. */
static void
test_bad_digest (void)
{
  g_autofree char *dir = g_dir_make_tmp ("ws-gui-digest-bad-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "bad.wsdigest", NULL);
  g_autoptr(GFile) file = g_file_new_for_path (path);
  WsWindow *window;

  g_assert_true (g_file_set_contents (path, "{\"format\": \"waitscope-digest\", \"version\": 99}", -1, NULL));
  window = ws_gui_test_new_window (the_app, 0, 0);
  g_assert_null (ws_window_open_file (window, file));
  g_free (ws_gui_test_take_message (".version", 30, "the bad digest's dialog"));
  ws_gui_test_close_window (GTK_WIDGET (window));
  g_unlink (path);
  g_rmdir (dir);
}

int
main (int   argc,
      char *argv[])
{
  int status;

  the_app = ws_gui_test_init (&argc, &argv);
  g_test_add_func ("/gui/digest/open-fleet", test_open_digest);
  g_test_add_func ("/gui/digest/bad", test_bad_digest);
  status = g_test_run ();
  g_object_unref (the_app);
  return status;
}
