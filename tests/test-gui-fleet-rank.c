/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * A fleet ranked by what its slow traces have more of, in the real window
 * (issue 28).  The 24 runs of tests/data/fleet are opened as a fleet
 * (File → Open Traces as a Fleet…: ws_window_open_fleet()); six of them
 * are slow, as their classes file says.  The oracle is `waitscope-cli`,
 * run in its own process over the trace files:
 *
 * 1. No classes: the Mining page ranks by cost and says so with the
 *    sentence the CLI prints under its header ("24 traces, no slow or
 *    fast class: …", taken from the CLI's text output), and the choice of
 *    "What slow traces have more of" cannot be made yet.
 * 2. The classes file loaded through the page's Trace Classes chips (the
 *    CSV `--classes` reads): the fleet is mined again and ranked by the
 *    discriminative score by default; the table's first rows are
 *    `cluster --json --classes FILE --rank discriminative`'s clusters, in
 *    order, and the first row's pattern is `mine --json --classes FILE
 *    --rank discriminative`'s first (its frames: the fdatasync under the
 *    cache's mutex; its score, shown in the "Slow − fast" column).  The
 *    Contrast page's chips show the same classes (one set for both).
 * 3. "Rank by: Cost": mined again, ranked as `cluster --classes FILE`
 *    ranks (by total cost), the scores still shown.
 * 4. A law at the boundary between the window and the core: for random
 *    slow/fast assignments, given in a shuffled order of the traces,
 *    every pattern's score in the page is the score `mine --json --slow …
 *    --fast …` gives it (the window keys classes by trace file, not by
 *    position).
 *
 * The fleet is opened for mining alone (issue 28): before Contrast it
 * holds no contrast instance; the Contrast page's button reads the
 * traces again for their thread spans, after which the contrast is the
 * CLI's and Mining's rows are unchanged (not re-mined, and the same when
 * mined again).
 *
 * 5. Four traces open as documents, not a fleet: the classes given to
 *    their files rank them as `mine --slow … --fast …` over the files.
 *
 * Screenshots at 1280×720 and 1920×1080 of each state.
 */
#include "config.h"

#include <glib/gstdio.h>
#include <json-glib/json-glib.h>
#include <string.h>

#include "ws-application.h"
#include "ws-cli-test-util.h"
#include "ws-contrast-page.h"
#include "ws-gui-test-util.h"
#include "ws-mining-form.h"
#include "ws-mining-item.h"
#include "ws-run-class-chips.h"
#include "ws-trace-classes.h"
#include "ws-window.h"

#define LAMBDA    1000000   /* 1 ms */
#define THRESHOLD 0.5
#define N_RUNS    24
#define FIRST_ROWS 5

static WsApplication *the_app;

static char *
data_path (const char *name)
{
  return g_build_filename (g_getenv ("WS_TEST_DATA"), name, NULL);
}

static GtkWidget *
find_label_containing (GtkWidget  *w,
                       const char *needle)
{
  if (GTK_IS_LABEL (w) && gtk_widget_get_mapped (w) && strstr (gtk_label_get_text (GTK_LABEL (w)), needle) != NULL)
    return w;
  for (GtkWidget *c = gtk_widget_get_first_child (w); c != NULL; c = gtk_widget_get_next_sibling (c))
    {
      GtkWidget *found = find_label_containing (c, needle);
      if (found != NULL)
        return found;
    }
  return NULL;
}

static GtkWidget *
page_child (WsMiningPage *page,
            const char   *name)
{
  GtkWidget *w = GTK_WIDGET (gtk_widget_get_template_child (GTK_WIDGET (page), WS_TYPE_MINING_PAGE, name));

  g_assert_nonnull (w);
  return w;
}

/* The CLI's output; fails the test if it fails. */
static char *
cli_out (GPtrArray *args)
{
  g_auto(WsCliRun) run = { 0 };

  g_ptr_array_add (args, NULL);
  ws_cli_run_argv (&run, NULL, (const char * const *) args->pdata);
  g_ptr_array_remove_index (args, args->len - 1);
  if (run.status != 0)
    g_error ("waitscope-cli %s: exit %d: %s", (char *) g_ptr_array_index (args, 0), run.status, run.err);
  return g_steal_pointer (&run.out);
}

static JsonObject *
cli_json (JsonParser *parser,
          GPtrArray  *args)
{
  g_autofree char *out = cli_out (args);
  g_autoptr(GError) error = NULL;

  g_assert_true (json_parser_load_from_data (parser, out, -1, &error));
  g_assert_no_error (error);
  return json_node_get_object (json_parser_get_root (parser));
}

/* "mine|cluster TRACE… --lambda … --threshold … --history … EXTRA…" */
static GPtrArray *
cli_args (const char  *command,
          char       **traces,
          const char  *history,
          ...)
{
  GPtrArray *args = g_ptr_array_new_with_free_func (g_free);
  va_list ap;
  const char *more;

  g_ptr_array_add (args, g_strdup (command));
  for (guint i = 0; traces != NULL && traces[i] != NULL; i++)
    g_ptr_array_add (args, g_strdup (traces[i]));
  g_ptr_array_add (args, g_strdup_printf ("--lambda=%dns", LAMBDA));
  if (g_str_equal (command, "cluster"))
    g_ptr_array_add (args, g_strdup_printf ("--threshold=%g", THRESHOLD));
  g_ptr_array_add (args, g_strdup_printf ("--history=%s", history));
  va_start (ap, history);
  while ((more = va_arg (ap, const char *)) != NULL)
    g_ptr_array_add (args, g_strdup (more));
  va_end (ap);
  return args;
}

typedef struct {
  WsMiningPage *page;
  WsClusterSet *before;
} Remined;

static gboolean
mined (gpointer data)
{
  return !ws_gui_test_mining_busy (data) && ws_gui_test_mining_cluster_set (data) != NULL;
}

/* A run newer than the one shown before has finished. */
static gboolean
remined (gpointer data)
{
  Remined *r = data;
  WsClusterSet *now = ws_gui_test_mining_cluster_set (r->page);

  return !ws_gui_test_mining_busy (r->page) && now != NULL && now != r->before;
}

static void
wait_remined (WsMiningPage *page,
              WsClusterSet *before,
              const char   *what)
{
  Remined r = { page, before };

  ws_gui_test_wait_until (remined, &r, 120, what);
  ws_gui_test_settle (GTK_WIDGET (page));
}

static char *pattern_key (WsStackDb *db, const WsPattern *p);

/* Every cluster and pattern the Mining page holds, as text: what the
 * table's rows are made of. */
static char *
mining_snapshot (WsMiningPage *page)
{
  WsClusterSet *clusters = ws_gui_test_mining_cluster_set (page);
  WsPatternSet *set = ws_cluster_set_get_pattern_set (clusters);
  g_autoptr(GString) text = g_string_new (NULL);

  for (guint i = 0; i < ws_cluster_set_get_n_clusters (clusters); i++)
    {
      const WsCluster *c = ws_cluster_set_get_cluster (clusters, i);

      g_string_append_printf (text, "cluster %u: %" G_GINT64_FORMAT " %u %" G_GUINT64_FORMAT " %" G_GINT64_FORMAT " [",
                              i, c->total_cost, c->n_streams, c->n_events, c->discriminative);
      for (guint k = 0; k < c->n_patterns; k++)
        g_string_append_printf (text, "%s%u", k > 0 ? " " : "", c->patterns[k]);
      g_string_append (text, "]\n");
    }
  for (guint i = 0; i < ws_pattern_set_get_n_patterns (set); i++)
    {
      const WsPattern *p = ws_pattern_set_get_pattern (set, i);
      g_autofree char *key = pattern_key (ws_pattern_set_get_stack_db (set), p);

      g_string_append_printf (text, "pattern %u: %s %" G_GINT64_FORMAT " %" G_GUINT64_FORMAT " %u %" G_GINT64_FORMAT "\n",
                              i, key, p->cost, p->n_events, p->n_streams, p->discriminative);
    }
  return g_string_free (g_steal_pointer (&text), FALSE);
}

/* The fleet's traces read again for their thread spans. */
static gboolean
spans_read (gpointer data)
{
  WsContrastPage *page = data;
  WsDigest *digest = ws_contrast_page_get_digest (page);

  return !ws_contrast_page_get_busy (page) && digest != NULL && ws_digest_count_instances (digest) > 0;
}

static gboolean
contrasted (gpointer data)
{
  return !ws_contrast_page_get_busy (data) && ws_contrast_page_get_result (data) != NULL;
}

/* The fleet opened from traces is contrasted by trace class (it keeps the
 * thread spans): with the file's classes, as `contrast --json --slow …
 * --fast …` over the trace files contrasts them. */
static void screenshots (WsWindow *window, const char *name);
static void wait_remined (WsMiningPage *page, WsClusterSet *before, const char *what);

/* The fleet was opened for mining alone: no contrast instance is held
 * until the Contrast page's button reads the traces again; then every
 * run's thread spans are there, and Mining's rows are what they were —
 * the clusters shown are not re-mined, and mining the fleet again gives
 * the same rows, pattern for pattern. */
static void
read_spans (WsWindow       *window,
            WsContrastPage *page)
{
  WsMiningPage *mining = ws_window_get_mining_page (window);
  WsClusterSet *shown = ws_gui_test_mining_cluster_set (mining);
  g_autofree char *before = mining_snapshot (mining);
  g_autofree char *after = NULL, *again = NULL;
  WsDigest *fleet = ws_contrast_page_get_digest (page), *read;
  GtkWidget *line;

  g_assert_nonnull (fleet);
  g_assert_cmpuint (ws_digest_get_n_traces (fleet), ==, N_RUNS);
  g_assert_cmpuint (ws_digest_count_instances (fleet), ==, 0);
  for (guint i = 0; i < N_RUNS; i++)
    g_assert_false (ws_digest_get_trace (fleet, i)->has_instances);
  ws_window_show_details_page (window, "contrast");
  ws_gui_test_settle (GTK_WIDGET (window));
  line = find_label_containing (GTK_WIDGET (page), "needs each run's wait graphs");
  g_assert_nonnull (line);
  g_assert_nonnull (strstr (gtk_label_get_text (GTK_LABEL (line)), "a trace"));
  screenshots (window, "fleet-rank-contrast-unread");

  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (page), "contrast.read-spans", NULL));
  ws_gui_test_wait_until (spans_read, page, 180, "the fleet's traces read again for their spans");
  read = ws_contrast_page_get_digest (page);
  g_assert_true (read != fleet);
  g_assert_cmpuint (ws_digest_get_n_traces (read), ==, N_RUNS);
  for (guint i = 0; i < N_RUNS; i++)
    {
      g_assert_true (ws_digest_get_trace (read, i)->has_instances);
      g_assert_true (ws_digest_get_trace (read, i)->spans_only);
      g_assert_cmpstr (ws_digest_get_trace (read, i)->content_hash, ==, ws_digest_get_trace (fleet, i)->content_hash);
    }
  /* Nothing left out: the line is gone. */
  g_assert_null (find_label_containing (GTK_WIDGET (page), "needs each run's wait graphs"));
  g_assert_null (find_label_containing (GTK_WIDGET (page), "Left out of the contrast"));

  g_assert_true (ws_gui_test_mining_cluster_set (mining) == shown);
  after = mining_snapshot (mining);
  g_assert_cmpstr (after, ==, before);
  ws_window_show_details_page (window, "mining");
  ws_mining_page_run (mining);
  wait_remined (mining, shown, "the fleet mined again after its spans were read");
  again = mining_snapshot (mining);
  g_assert_cmpstr (again, ==, before);
  g_test_message ("spans read: %u instances over %u traces; mining's %zu bytes of rows the same",
                  ws_digest_count_instances (read), N_RUNS, strlen (before));
}

static void
check_contrast (WsWindow       *window,
                WsContrastPage *page,
                char          **runs,
                const char     *csv)
{
  g_autoptr(GPtrArray) args = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GArray) entries = NULL;
  g_autoptr(GError) error = NULL;
  WsContrastResult *result;
  const WsContrastPattern *p;
  JsonObject *cli, *first;

  /* The classes named by file, without the latencies that would set a
   * thread span's thresholds (the window's chips give classes only). */
  entries = ws_trace_classes_read_csv (csv, &error);
  g_assert_no_error (error);
  g_ptr_array_add (args, g_strdup ("contrast"));
  g_ptr_array_add (args, g_strdup ("--json"));
  for (guint i = 0; i < entries->len; i++)
    {
      const WsRunClassEntry *e = &g_array_index (entries, WsRunClassEntry, i);
      g_ptr_array_add (args, g_strdup_printf ("--%s=%s", ws_run_class_to_string (e->klass), e->path));
    }
  cli = cli_json (parser, args);

  read_spans (window, page);
  ws_window_show_details_page (window, "contrast");
  ws_contrast_page_run (page);
  ws_gui_test_wait_until (contrasted, page, 180, "the fleet contrasted by trace class");
  result = ws_contrast_page_get_result (page);
  g_assert_cmpuint (ws_contrast_result_get_n_patterns (result), >, 0);
  g_assert_cmpint (json_object_get_int_member (cli, "patterns_total"), ==, ws_contrast_result_get_n_patterns (result));
  g_assert_cmpint (json_object_get_int_member (cli, "slow_component_cost"), ==,
                   ws_contrast_result_get_total_cost (result));
  first = json_array_get_object_element (json_object_get_array_member (cli, "patterns"), 0);
  p = ws_contrast_result_get_pattern (result, 0);
  g_assert_cmpint (json_object_get_int_member (first, "c"), ==, p->c);
  g_assert_cmpint (json_object_get_int_member (first, "n"), ==, (gint64) p->n);
  g_test_message ("fleet from traces, contrast by class: %u patterns as the CLI's, the first C %" G_GINT64_FORMAT,
                  ws_contrast_result_get_n_patterns (result), p->c);
  (void) runs;
}

static gboolean
fleet_shown (gpointer data)
{
  return !ws_window_get_fleet_busy (data) && find_label_containing (data, "read as they loaded") != NULL;
}

static char *
frames_key (JsonArray *frames)
{
  g_autoptr(GString) key = g_string_new (NULL);

  for (guint k = 0; k < json_array_get_length (frames); k++)
    g_string_append_printf (key, "%s|", json_array_get_string_element (frames, k));
  return g_string_free (g_steal_pointer (&key), FALSE);
}

static char *
pattern_key (WsStackDb       *db,
             const WsPattern *p)
{
  g_autoptr(GString) key = g_string_new (NULL);

  for (guint k = 0; k < p->n_frames; k++)
    {
      g_autofree char *f = ws_stack_table_format_frame (ws_stack_db_get_stack_table (db), p->frames[k]);
      g_string_append_printf (key, "%s|", f);
    }
  return g_string_free (g_steal_pointer (&key), FALSE);
}

/* The table's rows as the user sees them: the clusters, top down. */
static WsMiningItem *
table_row (WsMiningPage *page,
           guint         position)
{
  GtkColumnView *view = GTK_COLUMN_VIEW (page_child (page, "cluster_view"));
  GListModel *model = G_LIST_MODEL (gtk_column_view_get_model (view));
  g_autoptr(GtkTreeListRow) row = NULL;
  WsMiningItem *item;

  g_assert_cmpuint (position, <, g_list_model_get_n_items (model));
  row = g_list_model_get_item (model, position);
  item = gtk_tree_list_row_get_item (row);
  g_object_unref (item);   /* the row holds it */
  return item;
}

/* The page's first rows against `cluster --json`'s clusters, in order. */
static void
check_rows (WsMiningPage *page,
            JsonObject   *cluster)
{
  JsonArray *clusters = json_object_get_array_member (cluster, "clusters");
  GListModel *model = G_LIST_MODEL (gtk_column_view_get_model (GTK_COLUMN_VIEW (page_child (page, "cluster_view"))));
  guint n = MIN (FIRST_ROWS, json_array_get_length (clusters)), position = 0;

  g_assert_cmpint (json_object_get_int_member (cluster, "n_clusters"), ==,
                   ws_cluster_set_get_n_clusters (ws_gui_test_mining_cluster_set (page)));
  for (guint i = 0; i < n; i++, position++)
    {
      JsonObject *c = json_array_get_object_element (clusters, i);
      WsMiningItem *item;

      /* Patterns of an expanded cluster are rows too: skip to the next cluster. */
      while ((item = table_row (page, position)) != NULL && ws_mining_item_get_kind (item) != WS_MINING_ITEM_CLUSTER)
        position++;
      g_assert_cmpuint (position, <, g_list_model_get_n_items (model));
      g_assert_cmpuint (ws_mining_item_get_rank (item), ==, json_object_get_int_member (c, "rank"));
      g_assert_cmpint (ws_mining_item_get_total_cost (item), ==, json_object_get_int_member (c, "total_cost"));
      g_assert_cmpuint (ws_mining_item_get_n_streams (item), ==, json_object_get_int_member (c, "streams"));
      g_assert_cmpuint (ws_mining_item_get_n_events (item), ==, json_object_get_int_member (c, "events"));
    }
}

static WsWindow *
new_window (const char *history)
{
  GSettings *settings = ws_application_get_settings (the_app);
  const char *keys[] = { "mining-scope", "mining-stack-kind", "mining-must-match", "mining-must-not-match",
                         "mining-threads", "mining-threshold", "mining-rank", "mining-linkage" };
  WsMiningForm *form;
  WsWindow *window;

  for (guint i = 0; i < G_N_ELEMENTS (keys); i++)
    g_settings_reset (settings, keys[i]);
  window = ws_window_new (GTK_APPLICATION (the_app));
  gtk_window_set_default_size (GTK_WINDOW (window), 1280, 720);
  gtk_window_present (GTK_WINDOW (window));
  ws_session_set_history_path (ws_window_get_session (window), history);
  form = WS_MINING_FORM (ws_gui_test_find_child (GTK_WIDGET (ws_window_get_mining_page (window)), WS_TYPE_MINING_FORM));
  ws_mining_form_set_filters (form, NULL, NULL);
  ws_mining_form_set_lambda (form, LAMBDA);
  ws_mining_form_set_threshold (form, THRESHOLD);
  return window;
}

typedef struct {
  GtkWidget *window;
  int        width_before;
} Resized;

static gboolean
resized (gpointer data)
{
  Resized *r = data;
  return gtk_widget_get_width (r->window) != r->width_before;
}

/* Screenshots of the window at 1280×720 and 1920×1080, back to 1280×720. */
static void
screenshots (WsWindow   *window,
             const char *name)
{
  const int sizes[][2] = { { 1920, 1080 }, { 1280, 720 } };

  for (guint i = 0; i < G_N_ELEMENTS (sizes); i++)
    {
      g_autofree char *file = NULL;
      Resized r = { GTK_WIDGET (window), gtk_widget_get_width (GTK_WIDGET (window)) };

      if (r.width_before != sizes[i][0])
        {
          gtk_window_set_default_size (GTK_WINDOW (window), sizes[i][0], sizes[i][1]);
          ws_gui_test_wait_until (resized, &r, 60, "the window to change size");
        }
      ws_gui_test_settle (GTK_WIDGET (window));
      file = g_strdup_printf ("%s-%dx%d.png", name, sizes[i][0], sizes[i][1]);
      g_object_unref (ws_gui_test_screenshot (GTK_WIDGET (window), file));
    }
}

/* 4: random classes, given in a shuffled order, against the CLI's scores. */
static void
check_random_classes (WsWindow     *window,
                      WsMiningPage *page,
                      char        **runs,
                      const char   *history)
{
  WsRunClasses *classes = ws_session_get_run_classes (ws_window_get_session (window));

  for (guint round = 0; round < 3; round++)
    {
      g_autoptr(GPtrArray) args = NULL;
      g_autoptr(JsonParser) parser = json_parser_new ();
      g_autoptr(GHashTable) want = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
      guint order[N_RUNS];
      const char *paths[N_RUNS];
      WsRunClass given[N_RUNS];
      guint n_slow = 0;
      WsClusterSet *before = ws_gui_test_mining_cluster_set (page);
      WsPatternSet *set;
      WsStackDb *db;
      JsonArray *patterns;

      for (guint i = 0; i < N_RUNS; i++)
        order[i] = i;
      for (guint i = N_RUNS - 1; i > 0; i--)
        {
          guint j = g_test_rand_int_range (0, i + 1), t = order[i];
          order[i] = order[j];
          order[j] = t;
        }
      /* Between 1 and 12 slow runs, the others fast, given shuffled. */
      n_slow = g_test_rand_int_range (1, 13);
      args = cli_args ("mine", NULL, history, "--top=0", "--json", "--rank=discriminative", NULL);
      for (guint i = 0; i < N_RUNS; i++)
        {
          paths[i] = runs[order[i]];
          given[i] = i < n_slow ? WS_RUN_CLASS_SLOW : WS_RUN_CLASS_FAST;
          g_ptr_array_add (args, g_strdup_printf ("--%s=%s", i < n_slow ? "slow" : "fast", paths[i]));
        }
      ws_run_classes_set_many (classes, paths, given, N_RUNS);
      wait_remined (page, before, "the fleet mined with random classes");

      patterns = json_object_get_array_member (cli_json (parser, args), "patterns");
      for (guint i = 0; i < json_array_get_length (patterns); i++)
        {
          JsonObject *p = json_array_get_object_element (patterns, i);
          g_hash_table_insert (want, frames_key (json_object_get_array_member (p, "frames")),
                               g_memdup2 (&(gint64) { json_object_get_int_member (p, "discriminative") }, sizeof (gint64)));
        }
      set = ws_cluster_set_get_pattern_set (ws_gui_test_mining_cluster_set (page));
      db = ws_pattern_set_get_stack_db (set);
      g_assert_cmpuint (ws_pattern_set_get_n_patterns (set), ==, g_hash_table_size (want));
      for (guint i = 0; i < ws_pattern_set_get_n_patterns (set); i++)
        {
          const WsPattern *p = ws_pattern_set_get_pattern (set, i);
          g_autofree char *key = pattern_key (db, p);
          const gint64 *score = g_hash_table_lookup (want, key);

          if (score == NULL)
            g_error ("round %u: the page's pattern %u is not mine's: %s", round, i, key);
          g_assert_cmpint (p->discriminative, ==, *score);
        }
      g_test_message ("random classes, round %u: %u slow of %u, %u patterns' scores as the CLI's", round, n_slow,
                      N_RUNS, ws_pattern_set_get_n_patterns (set));
    }
}

static void
test_fleet_rank (void)
{
  g_autofree char *dir = g_dir_make_tmp ("ws-gui-fleet-rank-XXXXXX", NULL);
  g_autofree char *history = g_build_filename (dir, "history.sqlite", NULL);
  g_autofree char *csv = data_path ("fleet/classes.csv");
  g_autofree char *cli_text = NULL;
  g_autofree char *sentence = NULL;
  g_autoptr(GStrvBuilder) b = g_strv_builder_new ();
  g_autoptr(GListModel) files = NULL;
  g_autoptr(GListStore) store = g_list_store_new (G_TYPE_FILE);
  g_autoptr(JsonParser) mine_parser = json_parser_new ();
  g_autoptr(JsonParser) cluster_parser = json_parser_new ();
  g_autoptr(JsonParser) cost_parser = json_parser_new ();
  g_autoptr(GPtrArray) args = NULL;
  g_auto(GStrv) runs = NULL;
  JsonObject *mine, *cluster, *first;
  WsRunClassChips *chips;
  WsMiningPage *page;
  WsWindow *window;
  WsClusterSet *before;
  const WsCluster *top;
  const WsPattern *top_pattern;
  WsPatternSet *set;
  GtkWidget *note, *slow_button;
  char *end;

  if (g_getenv ("WS_CLI") == NULL)
    {
      g_test_skip ("WS_CLI is not set");
      return;
    }
  for (guint i = 1; i <= N_RUNS; i++)
    {
      g_autofree char *name = g_strdup_printf ("fleet/run-%02u.perf.txt.gz", i);
      g_autofree char *path = data_path (name);
      g_autoptr(GFile) file = g_file_new_for_path (path);

      g_strv_builder_add (b, path);
      g_list_store_append (store, file);
    }
  runs = g_strv_builder_end (b);
  window = new_window (history);
  page = ws_window_get_mining_page (window);
  ws_window_open_fleet (window, G_LIST_MODEL (store));
  ws_gui_test_wait_until (fleet_shown, window, 180, "the fleet shown");
  ws_gui_test_wait_until (mined, page, 120, "the fleet mined");
  ws_gui_test_settle (GTK_WIDGET (window));

  /* 1. No classes: the CLI's own sentence (from its text output). */
  args = cli_args ("mine", runs, history, NULL);
  cli_text = cli_out (args);
  sentence = g_strdup (strstr (cli_text, "24 traces, no slow or fast class"));
  g_assert_nonnull (sentence);
  end = strstr (sentence, "all of them.");
  g_assert_nonnull (end);
  end[strlen ("all of them.")] = '\0';
  note = page_child (page, "fleet_note_label");
  g_assert_true (gtk_widget_get_mapped (note));
  g_assert_true (g_str_has_prefix (gtk_label_get_text (GTK_LABEL (note)), sentence));
  g_assert_nonnull (strstr (gtk_label_get_text (GTK_LABEL (note)), "Trace Classes"));
  slow_button = page_child (page, "rank_slow_button");
  g_assert_false (gtk_widget_get_sensitive (slow_button));
  g_assert_false (gtk_column_view_column_get_visible (
    g_object_get_data (G_OBJECT (page_child (page, "cluster_view")), "ws-discriminative-column")));
  screenshots (window, "fleet-rank-no-classes");

  /* 2. The classes file, through the page's chips. */
  chips = WS_RUN_CLASS_CHIPS (page_child (page, "class_chips"));
  before = ws_gui_test_mining_cluster_set (page);
  g_assert_true (ws_run_class_chips_load_file (chips, csv));
  wait_remined (page, before, "the fleet mined with its classes");
  g_assert_true (gtk_widget_get_sensitive (slow_button));
  g_assert_true (gtk_toggle_button_get_active (GTK_TOGGLE_BUTTON (slow_button)));
  g_assert_true (gtk_column_view_column_get_visible (
    g_object_get_data (G_OBJECT (page_child (page, "cluster_view")), "ws-discriminative-column")));
  g_assert_nonnull (strstr (gtk_label_get_text (GTK_LABEL (note)), "6 slow and 18 fast traces"));

  g_clear_pointer (&args, g_ptr_array_unref);
  /* The CLI takes the file's traces. */
  args = cli_args ("cluster", NULL, history, "--json", "--classes", csv, "--rank=discriminative", NULL);
  cluster = cli_json (cluster_parser, args);
  check_rows (page, cluster);

  g_clear_pointer (&args, g_ptr_array_unref);
  args = cli_args ("mine", NULL, history, "--json", "--top=0", "--classes", csv, "--rank=discriminative", NULL);
  mine = cli_json (mine_parser, args);
  first = json_array_get_object_element (json_object_get_array_member (mine, "patterns"), 0);
  set = ws_cluster_set_get_pattern_set (ws_gui_test_mining_cluster_set (page));
  top = ws_cluster_set_get_cluster (ws_gui_test_mining_cluster_set (page), table_row (page, 0) != NULL
                                    ? ws_mining_item_get_cluster (table_row (page, 0)) : 0);
  top_pattern = ws_pattern_set_get_pattern (set, top->patterns[0]);
  {
    g_autofree char *shown = pattern_key (ws_pattern_set_get_stack_db (set), top_pattern);
    g_autofree char *want = frames_key (json_object_get_array_member (first, "frames"));

    g_assert_cmpstr (shown, ==, want);
    g_assert_nonnull (strstr (shown, "lookup_cache"));
    g_assert_nonnull (strstr (shown, "fdatasync"));
  }
  g_assert_cmpint (top_pattern->discriminative, ==, json_object_get_int_member (first, "discriminative"));
  /* A cluster of one pattern scores as its pattern: the row shows mine's score. */
  g_assert_cmpuint (top->n_patterns, ==, 1);
  g_assert_cmpint (ws_mining_item_get_discriminative (table_row (page, 0)), ==,
                   json_object_get_int_member (first, "discriminative"));
  g_assert_cmpint (ws_mining_item_get_discriminative (table_row (page, 0)), >, 0);

  /* One set of classes: the Contrast page's chips show the file's. */
  {
    WsContrastPage *contrast = WS_CONTRAST_PAGE (ws_gui_test_find_child (GTK_WIDGET (window), WS_TYPE_CONTRAST_PAGE));
    WsRunClassChips *shown = WS_RUN_CLASS_CHIPS (ws_gui_test_find_child (GTK_WIDGET (contrast), WS_TYPE_RUN_CLASS_CHIPS));
    guint n_slow = 0;

    for (guint i = 0; i < N_RUNS; i++)
      n_slow += ws_run_class_chips_get_shown (shown, i) == WS_RUN_CLASS_SLOW;
    g_assert_cmpuint (n_slow, ==, 6);
    g_assert_cmpuint (ws_run_class_chips_get_shown (shown, 2), ==, WS_RUN_CLASS_SLOW);    /* run-03 */
    g_assert_cmpuint (ws_run_class_chips_get_shown (shown, 0), ==, WS_RUN_CLASS_FAST);    /* run-01 */
    check_contrast (window, contrast, runs, csv);
    screenshots (window, "fleet-rank-contrast");
    ws_window_show_details_page (window, "mining");
  }
  screenshots (window, "fleet-rank-classes");

  /* 3. Rank by cost: as `cluster --classes` ranks by default. */
  before = ws_gui_test_mining_cluster_set (page);
  gtk_toggle_button_set_active (GTK_TOGGLE_BUTTON (page_child (page, "rank_cost_button")), TRUE);
  wait_remined (page, before, "the fleet mined, ranked by cost");
  g_clear_pointer (&args, g_ptr_array_unref);
  args = cli_args ("cluster", NULL, history, "--json", "--classes", csv, NULL);
  check_rows (page, cli_json (cost_parser, args));
  g_assert_true (gtk_column_view_column_get_visible (
    g_object_get_data (G_OBJECT (page_child (page, "cluster_view")), "ws-discriminative-column")));
  gtk_toggle_button_set_active (GTK_TOGGLE_BUTTON (slow_button), TRUE);
  ws_gui_test_wait_until (mined, page, 120, "the fleet mined, ranked by the score again");

  /* 4. */
  check_random_classes (window, page, runs, history);

  ws_gui_test_close_window (GTK_WIDGET (window));
  g_unlink (history);
  g_rmdir (dir);
}

/* 5. Several traces open as documents (no fleet): the classes given to
 * their files rank the ticked traces as `mine --slow … --fast …` over the
 * same files does. */
static void
test_open_traces (void)
{
  g_autofree char *dir = g_dir_make_tmp ("ws-gui-fleet-rank-docs-XXXXXX", NULL);
  g_autofree char *history = g_build_filename (dir, "history.sqlite", NULL);
  const char *names[] = { "fleet/run-01.perf.txt.gz", "fleet/run-03.perf.txt.gz", "fleet/run-07.perf.txt.gz",
                          "fleet/run-02.perf.txt.gz" };
  const WsRunClass given[] = { WS_RUN_CLASS_FAST, WS_RUN_CLASS_SLOW, WS_RUN_CLASS_SLOW, WS_RUN_CLASS_FAST };
  const char *paths[G_N_ELEMENTS (names)];
  g_autoptr(GPtrArray) args = NULL;
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autofree char *key = NULL, *want = NULL;
  WsWindow *window;
  WsMiningPage *page;
  WsClusterSet *before;
  WsPatternSet *set;
  const WsPattern *top;
  JsonObject *first;

  if (g_getenv ("WS_CLI") == NULL)
    {
      g_test_skip ("WS_CLI is not set");
      return;
    }
  window = new_window (history);
  page = ws_window_get_mining_page (window);
  args = cli_args ("mine", NULL, history, "--json", "--top=0", "--rank=discriminative", NULL);
  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    {
      WsDocument *doc = ws_gui_test_open_trace (window, names[i]);

      paths[i] = ws_trace_get_path (ws_document_get_trace (doc));
      g_ptr_array_add (args, g_strdup_printf ("--%s=%s", ws_run_class_to_string (given[i]), paths[i]));
    }
  ws_window_show_details_page (window, "mining");
  ws_mining_page_run (page);
  ws_gui_test_wait_until (mined, page, 120, "the open traces mined");
  g_assert_true (gtk_widget_get_visible (page_child (page, "fleet_box")));
  g_assert_true (g_str_has_prefix (gtk_label_get_text (GTK_LABEL (page_child (page, "fleet_note_label"))),
                                   "4 traces, no slow or fast class"));

  before = ws_gui_test_mining_cluster_set (page);
  ws_run_classes_set_many (ws_session_get_run_classes (ws_window_get_session (window)), paths, given,
                           G_N_ELEMENTS (names));
  wait_remined (page, before, "the open traces mined with their classes");
  first = json_array_get_object_element (json_object_get_array_member (cli_json (parser, args), "patterns"), 0);
  set = ws_cluster_set_get_pattern_set (ws_gui_test_mining_cluster_set (page));
  top = ws_pattern_set_get_pattern (set, 0);   /* the patterns, by their score */
  key = pattern_key (ws_pattern_set_get_stack_db (set), top);
  want = frames_key (json_object_get_array_member (first, "frames"));
  g_assert_cmpstr (key, ==, want);
  g_assert_cmpint (top->discriminative, ==, json_object_get_int_member (first, "discriminative"));
  g_assert_nonnull (strstr (gtk_label_get_text (GTK_LABEL (page_child (page, "fleet_note_label"))),
                            "2 slow and 2 fast traces"));
  ws_gui_test_close_window (GTK_WIDGET (window));
  g_unlink (history);
  g_rmdir (dir);
}

int
main (int argc, char **argv)
{
  int status;

  the_app = ws_gui_test_init (&argc, &argv);
  g_test_add_func ("/gui/fleet-rank/classes", test_fleet_rank);
  g_test_add_func ("/gui/fleet-rank/open-traces", test_open_traces);
  status = g_test_run ();
  g_object_unref (the_app);
  return status;
}
