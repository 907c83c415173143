/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Traces opened as a fleet in the real window (File → Open Traces as a
 * Fleet…: the action's chooser hands its files to ws_window_open_fleet(),
 * which this test calls with the files a user would pick).
 *
 * 1. Four runs of the recorded fleet: the window shows the fleet as an
 *    opened digest is shown, and the Mining page's patterns are
 *    `waitscope-cli mine --json` over the same traces, every one (cost and
 *    frames), and its first cluster is `cluster --json`'s — the CLI run
 *    independently, in its own process, over the trace files.
 * 2. Three good traces, a file that is not a trace and one that does not
 *    exist: a dialog names both bad files with the loader's reason, the
 *    page under the heading lists them too, and the fleet of the other
 *    three mines as `mine` over those three does; with nothing readable
 *    (junk, and a folder without trace files, each named), the dialog
 *    says there is no fleet and the window stays as it was.
 * 3. A folder (tests/data/fleet) opened as a fleet: its 24 runs, and
 *    the page mines as `mine` over the 24 files named one by one does;
 *    the sources and scripts beside them are not traces and not read.
 * 4. Cancel: thirty traces opening, the progress page says "Trace k of n"
 *    (screenshots at 1280×720 and 1920×1080), Cancel stops it, the window
 *    goes back to what it showed, and no fleet is shown.
 * 5. The actions themselves: win.open-fleet and win.open-fleet-folder
 *    show a chooser of many files / many folders, the first with File →
 *    Open's filters (cancelled: nothing opens), and a folder accepted in
 *    the real dialog opens as its fleet.
 * 6. A fleet opened for mining alone holds no contrast instance; its
 *    traces then change on disk (one rewritten with another run, one
 *    removed, one rewritten with its own bytes): the Contrast page's
 *    button reads them again, names the changed one ("changed since the
 *    fleet was opened") and the removed one (the loader's reason for it
 *    alone), keeps the untouched and the rewritten-alike (their content
 *    is the one mined), and contrasts those two as `contrast --json
 *    --fast … --slow …` over the files does.
 * 7. Cancelling that reading: sixteen links to the PostgreSQL trace, the
 *    page's progress bar says "Trace k of 16", Cancel stops it, the line
 *    and its button stay, and the page still holds no instance.
 */
#include "config.h"

#include <glib/gstdio.h>
#include <json-glib/json-glib.h>
#include <string.h>
#include <unistd.h>

#include "ws-application.h"
#include "ws-cli-test-util.h"
#include "ws-contrast-page.h"
#include "ws-gui-test-util.h"
#include "ws-importer.h"
#include "ws-trace-loader.h"
#include "ws-window.h"

#define LAMBDA    1000000   /* 1 ms */
#define THRESHOLD 0.5

static WsApplication *the_app;

static JsonObject *
cli_json (JsonParser *parser,
          GPtrArray  *args)
{
  g_auto(WsCliRun) run = { 0 };
  g_autoptr(GError) error = NULL;

  g_ptr_array_add (args, NULL);
  ws_cli_run_argv (&run, NULL, (const char * const *) args->pdata);
  g_ptr_array_remove_index (args, args->len - 1);
  if (run.status != 0)
    g_error ("waitscope-cli %s: exit %d: %s", (char *) g_ptr_array_index (args, 0), run.status, run.err);
  g_assert_true (json_parser_load_from_data (parser, run.out, -1, &error));
  g_assert_no_error (error);
  return json_node_get_object (json_parser_get_root (parser));
}

static gboolean
mined (gpointer data)
{
  return !ws_gui_test_mining_busy (data) && ws_gui_test_mining_cluster_set (data) != NULL;
}

static gboolean
fleet_shown (gpointer data)
{
  return !ws_window_get_fleet_busy (data) && ws_gui_test_find_label_containing (data, "read as they loaded") != NULL;
}

/* A window whose Mining settings are the CLI's with LAMBDA and THRESHOLD. */
static WsWindow *
new_window (const char *history)
{
  return ws_gui_test_new_mining_window (the_app, history, LAMBDA, THRESHOLD);
}

static GListModel *
files_of (char **paths)
{
  GListStore *files = g_list_store_new (G_TYPE_FILE);

  for (guint i = 0; paths[i] != NULL; i++)
    {
      g_autoptr(GFile) file = g_file_new_for_path (paths[i]);
      g_list_store_append (files, file);
    }
  return G_LIST_MODEL (files);
}

static char *
pattern_key (gint64        cost,
             GPtrArray    *frames)
{
  g_autoptr(GString) key = g_string_new (NULL);

  g_string_append_printf (key, "%" G_GINT64_FORMAT, cost);
  for (guint i = 0; i < frames->len; i++)
    g_string_append_printf (key, "|%s", (char *) g_ptr_array_index (frames, i));
  return g_string_free (g_steal_pointer (&key), FALSE);
}

/* The Mining page's patterns and first cluster against `mine --json` and
 * `cluster --json` over @traces, with the store the page recorded into. */
static void
check_against_cli (WsMiningPage *page,
                   char        **traces,
                   const char   *history)
{
  g_autofree char *lambda = g_strdup_printf ("%dns", LAMBDA);
  g_autofree char *threshold = g_strdup_printf ("%g", THRESHOLD);
  g_autoptr(JsonParser) mine_parser = json_parser_new ();
  g_autoptr(JsonParser) cluster_parser = json_parser_new ();
  g_autoptr(GPtrArray) args = g_ptr_array_new ();
  g_autoptr(GHashTable) gui = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  WsClusterSet *clusters = ws_gui_test_mining_cluster_set (page);
  WsPatternSet *set = ws_cluster_set_get_pattern_set (clusters);
  WsStackDb *db = ws_pattern_set_get_stack_db (set);
  JsonObject *mine, *cluster, *first_cluster;
  JsonArray *patterns;
  const WsCluster *cl;

  g_ptr_array_add (args, "mine");
  for (guint i = 0; traces[i] != NULL; i++)
    g_ptr_array_add (args, traces[i]);
  {
    const char *more[] = { "--lambda", lambda, "--history", history, "--top", "0", "--json" };
    for (guint i = 0; i < G_N_ELEMENTS (more); i++)
      g_ptr_array_add (args, (gpointer) more[i]);
  }
  mine = cli_json (mine_parser, args);
  g_assert_cmpint (json_object_get_int_member (mine, "streams"), ==, g_strv_length (traces));
  g_assert_cmpint (json_object_get_int_member (mine, "streams"), ==, ws_stack_db_get_n_streams (db));
  g_assert_cmpint (json_object_get_int_member (mine, "total_cost"), ==, ws_stack_db_get_total_cost (db));
  g_assert_cmpint (json_object_get_int_member (mine, "n_patterns"), ==, ws_pattern_set_get_n_patterns (set));
  g_assert_cmpuint (ws_pattern_set_get_n_patterns (set), >, 0);

  /* Every pattern: the same cost and frames, whatever the order. */
  for (guint i = 0; i < ws_pattern_set_get_n_patterns (set); i++)
    {
      const WsPattern *p = ws_pattern_set_get_pattern (set, i);
      g_autoptr(GPtrArray) frames = g_ptr_array_new_with_free_func (g_free);

      for (guint k = 0; k < p->n_frames; k++)
        g_ptr_array_add (frames, ws_stack_table_format_frame (ws_stack_db_get_stack_table (db), p->frames[k]));
      g_hash_table_add (gui, pattern_key (p->cost, frames));
    }
  patterns = json_object_get_array_member (mine, "patterns");
  g_assert_cmpuint (json_array_get_length (patterns), ==, g_hash_table_size (gui));
  for (guint i = 0; i < json_array_get_length (patterns); i++)
    {
      JsonObject *p = json_array_get_object_element (patterns, i);
      JsonArray *f = json_object_get_array_member (p, "frames");
      g_autoptr(GPtrArray) frames = g_ptr_array_new ();
      g_autofree char *key = NULL;

      for (guint k = 0; k < json_array_get_length (f); k++)
        g_ptr_array_add (frames, (gpointer) json_array_get_string_element (f, k));
      key = pattern_key (json_object_get_int_member (p, "cost"), frames);
      if (!g_hash_table_contains (gui, key))
        g_error ("mine's pattern %u is not the page's: %s", i, key);
    }

  /* The first row: the top cluster. */
  args->pdata[0] = "cluster";
  g_ptr_array_add (args, "--threshold");
  g_ptr_array_add (args, threshold);
  cluster = cli_json (cluster_parser, args);
  g_assert_cmpint (json_object_get_int_member (cluster, "n_clusters"), ==, ws_cluster_set_get_n_clusters (clusters));
  first_cluster = json_array_get_object_element (json_object_get_array_member (cluster, "clusters"), 0);
  cl = ws_cluster_set_get_cluster (clusters, 0);
  g_assert_cmpint (json_object_get_int_member (first_cluster, "total_cost"), ==, cl->total_cost);
  g_assert_cmpint (json_object_get_int_member (first_cluster, "streams"), ==, cl->n_streams);
  g_test_message ("GUI fleet and CLI over %u traces: %u patterns, %u clusters", g_strv_length (traces),
                  ws_pattern_set_get_n_patterns (set), ws_cluster_set_get_n_clusters (clusters));
}

static void
test_open_fleet (void)
{
  g_autofree char *dir = g_dir_make_tmp ("ws-gui-fleet-XXXXXX", NULL);
  g_autofree char *history = g_build_filename (dir, "history.sqlite", NULL);
  g_autoptr(GStrvBuilder) b = g_strv_builder_new ();
  g_autoptr(GListModel) files = NULL;
  g_auto(GStrv) traces = NULL;
  WsWindow *window;
  WsMiningPage *page;

  if (g_getenv ("WS_CLI") == NULL)
    {
      g_test_skip ("WS_CLI is not set");
      return;
    }
  for (guint i = 1; i <= 4; i++)
    {
      g_autofree char *name = g_strdup_printf ("fleet/run-%02u.perf.txt.gz", i);
      g_autofree char *path = ws_gui_test_data_path (name);
      g_strv_builder_add (b, path);
    }
  traces = g_strv_builder_end (b);
  window = new_window (history);
  page = ws_window_get_mining_page (window);
  files = files_of (traces);
  ws_window_open_fleet (window, files);
  g_assert_true (ws_window_get_fleet_busy (window));
  ws_gui_test_wait_until (fleet_shown, window, 120, "the fleet shown");
  g_assert_nonnull (ws_gui_test_find_label_containing (GTK_WIDGET (window), "A fleet of 4 traces"));
  /* As an opened digest is shown: a few lines where the timeline was. */
  g_assert_nonnull (ws_gui_test_find_label_containing (GTK_WIDGET (window), "reduced as they loaded and let go"));
  ws_gui_test_wait_until (mined, page, 120, "the fleet mined");
  check_against_cli (page, traces, history);

  g_object_unref (ws_gui_test_screenshot (GTK_WIDGET (window), "fleet-result-1280x720.png"));
  ws_gui_test_resize_and_wait (window, 1920, 1080);
  g_object_unref (ws_gui_test_screenshot (GTK_WIDGET (window), "fleet-result-1920x1080.png"));
  ws_gui_test_close_window (GTK_WIDGET (window));
  g_unlink (history);
  g_rmdir (dir);
}

static void
test_failed_traces (void)
{
  g_autofree char *dir = g_dir_make_tmp ("ws-gui-fleet-bad-XXXXXX", NULL);
  g_autofree char *history = g_build_filename (dir, "history.sqlite", NULL);
  g_autofree char *bad = g_build_filename (dir, "not-a-trace.perf.txt", NULL);
  g_autofree char *missing = g_build_filename (dir, "gone.perf.txt.gz", NULL);
  g_autofree char *a = ws_gui_test_data_path ("fleet/run-05.perf.txt.gz");
  g_autofree char *b = ws_gui_test_data_path ("py-locks.perf.txt.gz");
  g_autofree char *c = ws_gui_test_data_path ("fleet/run-06.perf.txt.gz");
  char *all[] = { a, bad, b, missing, c, NULL };
  char *good[] = { a, b, c, NULL };
  g_autoptr(GListModel) files = files_of (all);
  const char *needles[] = { "not-a-trace.perf.txt", "gone.perf.txt.gz", NULL };
  g_autofree char *body = NULL;
  WsWindow *window;
  GtkWidget *listed;

  if (g_getenv ("WS_CLI") == NULL)
    {
      g_test_skip ("WS_CLI is not set");
      return;
    }
  g_assert_true (g_file_set_contents (bad, "this is not perf script output\n", -1, NULL));
  window = new_window (history);
  ws_window_open_fleet (window, files);
  body = ws_gui_test_take_message ("Could Not Be Read", 120, "the dialog naming the traces not read");
  /* Each bad file named with the reason loading it alone gives. */
  for (guint i = 0; i < 2; i++)
    {
      g_autoptr(GError) alone = NULL;
      g_autoptr(WsTrace) trace = ws_trace_loader_load_full (i == 0 ? bad : missing, NULL, NULL, NULL, NULL, NULL, &alone);

      g_assert_null (trace);
      g_assert_nonnull (strstr (alone->message, needles[i]));
      g_assert_nonnull (strstr (body, alone->message));
    }
  g_assert_nonnull (strstr (body, "The fleet holds the other 3 traces"));
  ws_gui_test_wait_until (fleet_shown, window, 120, "the fleet of the other three shown");
  g_assert_nonnull (ws_gui_test_find_label_containing (GTK_WIDGET (window), "A fleet of 3 traces"));
  listed = ws_gui_test_find_label_containing (GTK_WIDGET (window), "gone.perf.txt.gz");
  g_assert_nonnull (listed);
  g_assert_nonnull (strstr (gtk_label_get_text (GTK_LABEL (listed)), "not-a-trace.perf.txt"));
  ws_gui_test_wait_until (mined, ws_window_get_mining_page (window), 120, "the three mined");
  check_against_cli (ws_window_get_mining_page (window), good, history);
  g_object_unref (ws_gui_test_screenshot (GTK_WIDGET (window), "fleet-failed-1280x720.png"));
  ws_gui_test_close_window (GTK_WIDGET (window));
  g_unlink (bad);
  g_unlink (history);
  g_rmdir (dir);
}

static gboolean
chooser_has_files (gpointer data)
{
  g_autoptr(GListModel) chosen = gtk_file_chooser_get_files (data);

  return g_list_model_get_n_items (chosen) > 0;
}

/* The chooser @action shows: titled @title, many at once, in @mode; for
 * files, the filters every trace chooser has — all traces, each format
 * the importer registry reads, all files — in that order. */
static GtkFileChooser *
show_chooser (WsWindow             *window,
              const char           *action,
              const char           *title,
              GtkFileChooserAction  mode)
{
  GtkFileChooser *chooser;

  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), action, NULL));
  chooser = ws_gui_test_wait_for_chooser (title);
  g_assert_true (gtk_file_chooser_get_select_multiple (chooser));
  g_assert_cmpint (gtk_file_chooser_get_action (chooser), ==, mode);
  if (mode == GTK_FILE_CHOOSER_ACTION_OPEN)
    {
      g_autoptr(GListModel) filters = gtk_file_chooser_get_filters (chooser);
      guint n;
      const WsImporter * const *importers = ws_importers_get (&n);

      g_assert_cmpuint (g_list_model_get_n_items (filters), ==, n + 2);
      for (guint i = 0; i < n + 2; i++)
        {
          g_autoptr(GtkFileFilter) filter = g_list_model_get_item (filters, i);
          const char *want = i == 0 ? "All Traces" : i == n + 1 ? "All Files" : importers[i - 1]->name;

          g_assert_cmpstr (gtk_file_filter_get_name (filter), ==, want);
        }
    }
  return chooser;
}

/* The menu's entries (and Ctrl+Shift+F) ask for many files, or many
 * folders; cancelled, nothing is opened.  File → Open's chooser is the
 * same but for its title. */
static void
test_choosers (void)
{
  static const struct { const char *action, *title; GtkFileChooserAction mode; } entries[] = {
    { "win.open-fleet", "Open Traces as a Fleet", GTK_FILE_CHOOSER_ACTION_OPEN },
    { "win.open-fleet-folder", "Open Folders of Traces as a Fleet", GTK_FILE_CHOOSER_ACTION_SELECT_FOLDER },
    { "win.open", "Open Traces", GTK_FILE_CHOOSER_ACTION_OPEN },
  };
  WsWindow *window = ws_gui_test_new_window (the_app, 1280, 720);

  for (guint i = 0; i < G_N_ELEMENTS (entries); i++)
    {
      GtkFileChooser *chooser = show_chooser (window, entries[i].action, entries[i].title, entries[i].mode);

      gtk_dialog_response (GTK_DIALOG (chooser), GTK_RESPONSE_CANCEL);
      ws_gui_test_settle (GTK_WIDGET (window));
      g_assert_false (ws_window_get_fleet_busy (window));
      g_assert_cmpuint (g_list_model_get_n_items (ws_window_get_documents (window)), ==, 0);
    }

  /* Accepted: the folder chosen in the dialog opens as its fleet (a
   * folder dialog with nothing selected in it answers its current folder). */
  {
    g_autofree char *folder = ws_gui_test_data_path ("fleet");
    g_autoptr(GFile) file = g_file_new_for_path (folder);
    g_autoptr(GListModel) chosen = NULL;
    g_autoptr(GFile) picked = NULL;
    g_autoptr(GError) error = NULL;
    GtkFileChooser *chooser = show_chooser (window, entries[1].action, entries[1].title, entries[1].mode);

    gtk_file_chooser_set_current_folder (chooser, file, &error);
    g_assert_no_error (error);
    ws_gui_test_wait_until (chooser_has_files, chooser, 30, "the folder chosen in the dialog");
    chosen = gtk_file_chooser_get_files (chooser);
    g_assert_cmpuint (g_list_model_get_n_items (chosen), ==, 1);
    picked = g_list_model_get_item (chosen, 0);
    g_assert_true (g_file_equal (picked, file));
    gtk_dialog_response (GTK_DIALOG (chooser), GTK_RESPONSE_ACCEPT);
    ws_gui_test_wait_until (fleet_shown, window, 120, "the folder chosen in the dialog shown as a fleet");
    g_assert_nonnull (ws_gui_test_find_label_containing (GTK_WIDGET (window), "A fleet of 24 traces"));
  }
  ws_gui_test_close_window (GTK_WIDGET (window));
}

/* Nothing readable: the dialog says there is no fleet, and the window goes
 * back to what it showed. */
static void
test_none_read (void)
{
  g_autofree char *dir = g_dir_make_tmp ("ws-gui-fleet-none-XXXXXX", NULL);
  g_autofree char *history = g_build_filename (dir, "history.sqlite", NULL);
  g_autofree char *bad = g_build_filename (dir, "junk.perf.txt", NULL);
  g_autofree char *empty = g_build_filename (dir, "no-traces-here", NULL);
  g_autofree char *notes = g_build_filename (empty, "notes.md", NULL);
  char *all[] = { bad, empty, NULL };
  g_autoptr(GListModel) files = files_of (all);
  g_autofree char *body = NULL;
  GtkStack *stack;
  WsWindow *window;

  g_assert_true (g_file_set_contents (bad, "\x01\x02 binary junk\n", -1, NULL));
  /* A folder whose only file is not named as a trace. */
  g_assert_cmpint (g_mkdir (empty, 0755), ==, 0);
  g_assert_true (g_file_set_contents (notes, "# notes\n", -1, NULL));
  window = new_window (history);
  stack = GTK_STACK (gtk_widget_get_template_child (GTK_WIDGET (window), WS_TYPE_WINDOW, "main_stack"));
  ws_window_open_fleet (window, files);
  body = ws_gui_test_take_message ("Could Not Be Read", 120, "the dialog naming the trace not read");
  g_assert_nonnull (strstr (body, "No trace could be read"));
  g_assert_nonnull (strstr (body, "junk.perf.txt"));
  g_assert_nonnull (strstr (body, "no-traces-here: a folder without trace files"));
  g_assert_false (ws_window_get_fleet_busy (window));
  g_assert_cmpstr (gtk_stack_get_visible_child_name (stack), ==, "welcome");
  g_assert_null (ws_gui_test_find_label_containing (GTK_WIDGET (window), "read as they loaded"));
  ws_gui_test_close_window (GTK_WIDGET (window));
  g_unlink (bad);
  g_unlink (notes);
  g_rmdir (empty);
  g_unlink (history);
  g_rmdir (dir);
}

static void
test_folder (void)
{
  g_autofree char *dir = g_dir_make_tmp ("ws-gui-fleet-folder-XXXXXX", NULL);
  g_autofree char *history = g_build_filename (dir, "history.sqlite", NULL);
  g_autofree char *folder = ws_gui_test_data_path ("fleet");
  g_autoptr(GStrvBuilder) b = g_strv_builder_new ();
  g_autoptr(GListStore) files = g_list_store_new (G_TYPE_FILE);
  g_autoptr(GFile) file = g_file_new_for_path (folder);
  g_auto(GStrv) runs = NULL;
  WsWindow *window;

  if (g_getenv ("WS_CLI") == NULL)
    {
      g_test_skip ("WS_CLI is not set");
      return;
    }
  for (guint i = 1; i <= 24; i++)
    {
      g_autofree char *name = g_strdup_printf ("fleet/run-%02u.perf.txt.gz", i);
      g_autofree char *path = ws_gui_test_data_path (name);
      g_strv_builder_add (b, path);
    }
  runs = g_strv_builder_end (b);
  g_list_store_append (files, file);
  window = new_window (history);
  ws_window_open_fleet (window, G_LIST_MODEL (files));
  ws_gui_test_wait_until (fleet_shown, window, 120, "the folder's fleet shown");
  g_assert_nonnull (ws_gui_test_find_label_containing (GTK_WIDGET (window), "A fleet of 24 traces"));
  g_assert_null (ws_gui_test_find_label_containing (GTK_WIDGET (window), "not read"));
  ws_gui_test_wait_until (mined, ws_window_get_mining_page (window), 120, "the folder's fleet mined");
  check_against_cli (ws_window_get_mining_page (window), runs, history);
  ws_gui_test_close_window (GTK_WIDGET (window));
  g_unlink (history);
  g_rmdir (dir);
}

static gboolean
second_trace_reported (gpointer data)
{
  return ws_gui_test_find_label_containing (data, "Trace 2 of 30") != NULL || ws_gui_test_find_label_containing (data, "Trace 3 of 30") != NULL;
}

static gboolean
not_busy (gpointer data)
{
  return !ws_window_get_fleet_busy (data);
}

static void
test_cancel (void)
{
  g_autofree char *dir = g_dir_make_tmp ("ws-gui-fleet-cancel-XXXXXX", NULL);
  g_autofree char *history = g_build_filename (dir, "history.sqlite", NULL);
  g_autofree char *pg = ws_gui_test_data_path ("pg-tpcb.perf.txt.gz");
  g_autoptr(GStrvBuilder) b = g_strv_builder_new ();
  g_autoptr(GListModel) files = NULL;
  g_auto(GStrv) traces = NULL;
  GtkStack *stack;
  WsWindow *window;

  /* Thirty links to the PostgreSQL trace: long enough to see and cancel. */
  for (guint i = 0; i < 30; i++)
    {
      g_autofree char *name = g_strdup_printf ("copy-%02u.perf.txt.gz", i);
      g_autofree char *link = g_build_filename (dir, name, NULL);

      g_assert_cmpint (symlink (pg, link), ==, 0);
      g_strv_builder_add (b, link);
    }
  traces = g_strv_builder_end (b);
  files = files_of (traces);
  window = new_window (history);
  stack = GTK_STACK (gtk_widget_get_template_child (GTK_WIDGET (window), WS_TYPE_WINDOW, "main_stack"));
  g_assert_cmpstr (gtk_stack_get_visible_child_name (stack), ==, "welcome");
  /* The welcome page's way in. */
  g_assert_nonnull (ws_gui_test_find_label_containing (GTK_WIDGET (window), "Open Many Traces as a Fleet"));
  g_object_unref (ws_gui_test_screenshot (GTK_WIDGET (window), "fleet-welcome-1280x720.png"));
  ws_window_open_fleet (window, files);
  g_assert_cmpstr (gtk_stack_get_visible_child_name (stack), ==, "fleet");
  g_assert_nonnull (ws_gui_test_find_label_containing (GTK_WIDGET (window), "Opening 30 Traces as a Fleet"));
  ws_gui_test_wait_until (second_trace_reported, window, 120, "trace 2 of 30 reported");
  g_object_unref (ws_gui_test_screenshot (GTK_WIDGET (window), "fleet-progress-1280x720.png"));
  ws_gui_test_resize_and_wait (window, 1920, 1080);
  g_object_unref (ws_gui_test_screenshot (GTK_WIDGET (window), "fleet-progress-1920x1080.png"));
  g_assert_true (ws_window_get_fleet_busy (window));

  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.cancel-fleet", NULL));
  ws_gui_test_wait_until (not_busy, window, 120, "the fleet cancelled");
  ws_gui_test_settle (GTK_WIDGET (window));
  g_assert_cmpstr (gtk_stack_get_visible_child_name (stack), ==, "welcome");
  g_assert_null (ws_gui_test_find_label_containing (GTK_WIDGET (window), "read as they loaded"));
  g_assert_null (ws_gui_test_find_label_containing (GTK_WIDGET (window), "reduced as they loaded and let go"));
  ws_gui_test_close_window (GTK_WIDGET (window));
  for (guint i = 0; traces[i] != NULL; i++)
    g_unlink (traces[i]);
  g_unlink (history);
  g_rmdir (dir);
}

static gboolean
spans_done (gpointer data)
{
  WsContrastPage *page = data;
  WsDigest *digest = ws_contrast_page_get_digest (page);

  return !ws_contrast_page_get_busy (page) && digest != NULL && digest != g_object_get_data (G_OBJECT (page), "fleet");
}

static gboolean
contrasted (gpointer data)
{
  return !ws_contrast_page_get_busy (data) && ws_contrast_page_get_result (data) != NULL;
}

static void
copy_file (const char *from,
           const char *to)
{
  g_autofree char *bytes = NULL;
  gsize n;

  g_assert_true (g_file_get_contents (from, &bytes, &n, NULL));
  g_assert_true (g_file_set_contents (to, bytes, n, NULL));
}

static void
test_spans_changed (void)
{
  g_autofree char *dir = g_dir_make_tmp ("ws-gui-fleet-spans-XXXXXX", NULL);
  g_autofree char *history = g_build_filename (dir, "history.sqlite", NULL);
  const char *runs[] = { "fleet/run-01.perf.txt.gz", "fleet/run-03.perf.txt.gz", "fleet/run-05.perf.txt.gz",
                         "fleet/run-07.perf.txt.gz" };
  g_autofree char *other = ws_gui_test_data_path ("fleet/run-08.perf.txt.gz");
  g_autoptr(GStrvBuilder) b = g_strv_builder_new ();
  g_autoptr(GListModel) files = NULL;
  g_autoptr(GPtrArray) args = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) alone = NULL;
  g_autoptr(WsTrace) gone = NULL;
  g_auto(GStrv) copies = NULL;
  WsContrastPage *page;
  WsDigest *fleet, *read;
  WsWindow *window;
  GtkWidget *listed;
  const char *text;
  JsonObject *cli;

  if (g_getenv ("WS_CLI") == NULL)
    {
      g_test_skip ("WS_CLI is not set");
      return;
    }
  for (guint i = 0; i < G_N_ELEMENTS (runs); i++)
    {
      g_autofree char *source = ws_gui_test_data_path (runs[i]);
      g_autofree char *name = g_strdup_printf ("copy-%u.perf.txt.gz", i + 1);
      g_autofree char *copy = g_build_filename (dir, name, NULL);

      copy_file (source, copy);
      g_strv_builder_add (b, copy);
    }
  copies = g_strv_builder_end (b);
  files = files_of (copies);
  window = new_window (history);
  ws_window_open_fleet (window, files);
  ws_gui_test_wait_until (fleet_shown, window, 120, "the fleet shown");
  ws_gui_test_wait_until (mined, ws_window_get_mining_page (window), 120, "the fleet mined");
  page = WS_CONTRAST_PAGE (ws_gui_test_find_child (GTK_WIDGET (window), WS_TYPE_CONTRAST_PAGE));
  fleet = ws_contrast_page_get_digest (page);
  g_assert_nonnull (fleet);
  g_assert_cmpuint (ws_digest_get_n_traces (fleet), ==, 4);
  g_assert_cmpuint (ws_digest_count_instances (fleet), ==, 0);
  g_object_set_data (G_OBJECT (page), "fleet", fleet);

  /* copy-2 is now another run, copy-3 is gone, copy-4 was written again
   * with its own bytes (a newer time, the same content). */
  copy_file (other, copies[1]);
  g_assert_cmpint (g_unlink (copies[2]), ==, 0);
  gone = ws_trace_loader_load_full (copies[2], NULL, NULL, NULL, NULL, NULL, &alone);
  g_assert_null (gone);
  {
    g_autofree char *source = ws_gui_test_data_path (runs[3]);
    copy_file (source, copies[3]);
  }

  ws_window_show_details_page (window, "contrast");
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (page), "contrast.read-spans", NULL));
  ws_gui_test_wait_until (spans_done, page, 120, "the fleet's traces read again");
  ws_gui_test_settle (GTK_WIDGET (window));
  read = ws_contrast_page_get_digest (page);
  g_assert_cmpuint (ws_digest_get_n_traces (read), ==, 2);
  g_assert_cmpstr (ws_digest_get_trace (read, 0)->path, ==, copies[0]);
  g_assert_cmpstr (ws_digest_get_trace (read, 1)->path, ==, copies[3]);
  g_assert_cmpuint (ws_digest_count_instances (read), >, 0);
  listed = ws_gui_test_find_label_containing (GTK_WIDGET (page), "Left out of the contrast");
  g_assert_nonnull (listed);
  text = gtk_label_get_text (GTK_LABEL (listed));
  g_assert_nonnull (strstr (text, alone->message));
  {
    g_autofree char *changed = g_strdup_printf ("%s: changed since the fleet was opened", copies[1]);
    g_assert_nonnull (strstr (text, changed));
  }
  g_assert_null (strstr (text, copies[0]));
  g_assert_null (strstr (text, copies[3]));
  g_object_unref (ws_gui_test_screenshot (GTK_WIDGET (window), "fleet-spans-left-out-1280x720.png"));

  /* The two kept, contrasted as the CLI contrasts their files. */
  {
    const char *paths[] = { copies[0], copies[3] };
    const WsRunClass given[] = { WS_RUN_CLASS_FAST, WS_RUN_CLASS_SLOW };
    WsContrastResult *result;

    ws_run_classes_set_many (ws_session_get_run_classes (ws_window_get_session (window)), paths, given, 2);
    ws_gui_test_settle (GTK_WIDGET (window));
    ws_contrast_page_run (page);
    ws_gui_test_wait_until (contrasted, page, 120, "the two kept contrasted");
    result = ws_contrast_page_get_result (page);
    g_ptr_array_add (args, g_strdup ("contrast"));
    g_ptr_array_add (args, g_strdup ("--json"));
    g_ptr_array_add (args, g_strdup_printf ("--fast=%s", copies[0]));
    g_ptr_array_add (args, g_strdup_printf ("--slow=%s", copies[3]));
    cli = cli_json (parser, args);
    g_assert_cmpint (json_object_get_int_member (cli, "patterns_total"), ==,
                     ws_contrast_result_get_n_patterns (result));
    g_assert_cmpint (json_object_get_int_member (cli, "slow_component_cost"), ==,
                     ws_contrast_result_get_total_cost (result));
    g_test_message ("two traces kept of four, contrasted: %u patterns as the CLI's",
                    ws_contrast_result_get_n_patterns (result));
  }
  ws_gui_test_close_window (GTK_WIDGET (window));
  for (guint i = 0; copies[i] != NULL; i++)
    g_unlink (copies[i]);
  g_unlink (history);
  g_rmdir (dir);
}

static gboolean
spans_progress_shown (gpointer data)
{
  GtkProgressBar *bar = data;
  const char *text = gtk_progress_bar_get_text (bar);

  return gtk_widget_get_mapped (GTK_WIDGET (bar)) && text != NULL && g_str_has_prefix (text, "Trace ")
         && strstr (text, " of 16") != NULL;
}

static gboolean
contrast_idle (gpointer data)
{
  return !ws_contrast_page_get_busy (data);
}

static void
test_spans_cancel (void)
{
  g_autofree char *dir = g_dir_make_tmp ("ws-gui-fleet-spans-cancel-XXXXXX", NULL);
  g_autofree char *history = g_build_filename (dir, "history.sqlite", NULL);
  g_autofree char *pg = ws_gui_test_data_path ("pg-tpcb.perf.txt.gz");
  g_autoptr(GStrvBuilder) b = g_strv_builder_new ();
  g_autoptr(GListModel) files = NULL;
  g_auto(GStrv) traces = NULL;
  WsContrastPage *page;
  GtkProgressBar *bar;
  WsDigest *fleet;
  WsWindow *window;

  for (guint i = 0; i < 16; i++)
    {
      g_autofree char *name = g_strdup_printf ("copy-%02u.perf.txt.gz", i);
      g_autofree char *link = g_build_filename (dir, name, NULL);

      g_assert_cmpint (symlink (pg, link), ==, 0);
      g_strv_builder_add (b, link);
    }
  traces = g_strv_builder_end (b);
  files = files_of (traces);
  window = new_window (history);
  ws_window_open_fleet (window, files);
  ws_gui_test_wait_until (fleet_shown, window, 300, "the fleet shown");
  ws_gui_test_wait_until (mined, ws_window_get_mining_page (window), 300, "the fleet mined");
  page = WS_CONTRAST_PAGE (ws_gui_test_find_child (GTK_WIDGET (window), WS_TYPE_CONTRAST_PAGE));
  fleet = ws_contrast_page_get_digest (page);
  bar = GTK_PROGRESS_BAR (gtk_widget_get_template_child (GTK_WIDGET (page), WS_TYPE_CONTRAST_PAGE, "progress_bar"));
  ws_window_show_details_page (window, "contrast");
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (page), "contrast.read-spans", NULL));
  ws_gui_test_wait_until (spans_progress_shown, bar, 120, "\"Trace k of 16\" in the page's progress bar");
  g_object_unref (ws_gui_test_screenshot (GTK_WIDGET (window), "fleet-spans-reading-1280x720.png"));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (page), "contrast.cancel", NULL));
  ws_gui_test_wait_until (contrast_idle, page, 120, "the reading cancelled");
  ws_gui_test_settle (GTK_WIDGET (window));
  g_assert_true (ws_contrast_page_get_digest (page) == fleet);
  g_assert_cmpuint (ws_digest_count_instances (fleet), ==, 0);
  g_assert_nonnull (ws_gui_test_find_label_containing (GTK_WIDGET (page), "needs each run's wait graphs"));
  g_assert_nonnull (ws_gui_test_find_label_containing (GTK_WIDGET (page), "Stopped reading the traces again"));
  ws_gui_test_close_window (GTK_WIDGET (window));
  for (guint i = 0; traces[i] != NULL; i++)
    g_unlink (traces[i]);
  g_unlink (history);
  g_rmdir (dir);
}

int
main (int   argc,
      char *argv[])
{
  int status;

  the_app = ws_gui_test_init (&argc, &argv);
  g_test_add_func ("/gui/fleet/open", test_open_fleet);
  g_test_add_func ("/gui/fleet/failed-traces", test_failed_traces);
  g_test_add_func ("/gui/fleet/choosers", test_choosers);
  g_test_add_func ("/gui/fleet/none-read", test_none_read);
  g_test_add_func ("/gui/fleet/folder", test_folder);
  g_test_add_func ("/gui/fleet/cancel", test_cancel);
  g_test_add_func ("/gui/fleet/spans-changed", test_spans_changed);
  g_test_add_func ("/gui/fleet/spans-cancel", test_spans_cancel);
  status = g_test_run ();
  g_object_unref (the_app);
  return status;
}
