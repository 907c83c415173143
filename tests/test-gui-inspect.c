/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Critical Path mode and the Inspector of the graph page, in the real
 * application window under a real display (Xvfb in the suite):
 *
 * - py-locks: select a window of a pylk-w worker in the timeline, choose
 *   Critical Path, and check the page's path against the core's, segment
 *   by segment; click a segment and show it in the timeline; step with
 *   the keyboard; export every format; look at the pixels.
 * - io-fsync: open the inspector on fsync-append's wait graph and on the
 *   whole trace; the under-connection finding must carry the core's
 *   count, and choosing it highlights exactly its waits in the graph, the
 *   critical path and the timeline; the findings export as JSON and
 *   Markdown.
 * - the inspector tests' hand-built daemon-bridge trace (test-inspector.c),
 *   saved as JSON and opened: choosing its over-connection highlights the
 *   bridging dbus-daemon thread's row in the timeline.
 *
 * Screenshots of every step go to WS_SCREENSHOT_DIR.
 */
#include "config.h"

#include <glib/gstdio.h>
#include <json-glib/json-glib.h>
#include <string.h>

#include "bench/ws-synthetic-waits.h"
#include "ws-application.h"
#include "ws-graph-page.h"
#include "ws-gui-test-util.h"
#include "ws-node-details.h"
#include "ws-inspector.h"
#include "ws-json-trace.h"
#include "ws-window.h"

static WsApplication *the_app;

/* The page's side panel, found in the widget tree. */
static WsNodeDetails *
details_of (WsGraphPage *page)
{
  GtkWidget *details = ws_gui_test_find_child (GTK_WIDGET (page), WS_TYPE_NODE_DETAILS);

  g_assert_nonnull (details);
  return WS_NODE_DETAILS (details);
}

static gboolean
none_highlighted (gpointer viewport)
{
  return ws_timeline_viewport_get_n_highlighted_threads (viewport) == 0;
}

static WsWindow *
open_window (const char  *trace_name,
             WsDocument **document)
{
  g_autofree char *base = g_strdup_printf ("%s.perf.txt.gz", trace_name);
  g_autofree char *path = g_build_filename (g_getenv ("WS_TEST_DATA"), base, NULL);
  WsWindow *window = ws_window_new (GTK_APPLICATION (the_app));

  gtk_window_set_default_size (GTK_WINDOW (window), 1580, 980);
  gtk_window_present (GTK_WINDOW (window));
  *document = ws_gui_test_open_trace (window, path);
  ws_gui_test_settle (GTK_WIDGET (window));
  return window;
}

static char *
thread_label (WsTrace *trace,
              guint    thread)
{
  const WsThread *t = ws_trace_get_thread (trace, thread);
  return g_strdup_printf ("%s · %d", t->name, t->tid);
}

static void
test_critical_path (void)
{
  g_autoptr(GdkTexture) shot = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(WsCriticalPath) core = NULL;
  WsDocument *document;
  WsWindow *window = open_window ("py-locks", &document);
  WsTrace *trace = ws_document_get_trace (document);
  WsTimelineViewport *viewport = ws_document_get_viewport (document);
  WsGraphPage *page = WS_GRAPH_PAGE (ws_gui_test_find_child (GTK_WIDGET (window), WS_TYPE_GRAPH_PAGE));
  WsCriticalPathView *view;
  WsCriticalPathRenderer *renderer;
  WsCriticalPath *path;
  gboolean ready = FALSE;
  WsSymptom symptom;
  guint worker, n, other = WS_NONE;

  g_assert_nonnull (page);
  view = WS_CRITICAL_PATH_VIEW (ws_gui_test_find_child (GTK_WIDGET (page), WS_TYPE_CRITICAL_PATH_VIEW));
  renderer = ws_critical_path_view_get_renderer (view);
  g_signal_connect (page, "ready", G_CALLBACK (ws_gui_test_flag_cb), &ready);

  /* 1. A 300 ms window of pylk-w2 selected in the timeline; Critical Path
   * from the selection bar. */
  worker = ws_gui_test_find_thread (trace, "pylk-w2");
  g_assert_cmpuint (worker, !=, WS_NONE);
  symptom.thread = worker;
  symptom.t0 = ws_trace_get_start_time (trace) + 1000000000;
  symptom.t1 = symptom.t0 + 300000000;
  ws_timeline_viewport_set_selection (viewport, worker, symptom.t0, symptom.t1);
  gtk_widget_activate_action (GTK_WIDGET (window), "win.show-critical-path", NULL);
  g_assert_true (ws_gui_test_graph_busy (page));
  ws_gui_test_wait_for_flag (&ready, 60, "the critical path");
  g_assert_cmpint (ws_gui_test_graph_mode (page), ==, WS_GRAPH_MODE_CRITICAL_PATH);
  g_assert_true (gtk_widget_is_drawable (GTK_WIDGET (view)));

  /* The same path as the core's, segment by segment. */
  path = ws_graph_page_get_shown (page)->path;
  g_assert_nonnull (path);
  g_assert_null (ws_graph_page_get_shown (page)->scene);
  core = ws_critical_path_build (trace, &symptom, NULL, &error);
  g_assert_no_error (error);
  n = ws_critical_path_get_n_segments (core);
  g_test_message ("critical path of pylk-w2: %u segments on %u threads", n,
                  ws_critical_path_renderer_get_n_lanes (renderer));
  g_assert_cmpuint (n, >, 10);
  g_assert_cmpuint (ws_critical_path_get_n_segments (path), ==, n);
  for (guint i = 0; i < n; i++)
    {
      const WsCriticalSegment *a = ws_critical_path_get_segment (path, i);
      const WsCriticalSegment *b = ws_critical_path_get_segment (core, i);

      g_assert_cmpuint (a->thread, ==, b->thread);
      g_assert_cmpint (a->start, ==, b->start);
      g_assert_cmpint (a->end, ==, b->end);
      g_assert_cmpuint (a->state, ==, b->state);
      if (a->thread != worker && other == WS_NONE)
        other = i;
    }
  /* The path leaves the worker for its readiers (the lock holders). */
  g_assert_cmpuint (other, !=, WS_NONE);
  g_assert_cmpuint (ws_critical_path_renderer_get_n_lanes (renderer), >=, 2);
  g_assert_cmpuint (ws_critical_path_renderer_get_lane_thread (renderer, 0), ==, worker);

  /* The segment table beside it has a row per segment. */
  {
    GtkColumnView *table = NULL;
    GtkWidget *stack = gtk_widget_get_ancestor (gtk_widget_get_parent (GTK_WIDGET (view)), GTK_TYPE_PANED);

    table = GTK_COLUMN_VIEW (ws_gui_test_find_child (stack, GTK_TYPE_COLUMN_VIEW));
    g_assert_nonnull (table);
    g_assert_true (gtk_widget_is_drawable (GTK_WIDGET (table)));
    g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (gtk_column_view_get_model (table))), ==, n);
  }

  /* Accessible, focusable, described. */
  gtk_test_accessible_assert_role (GTK_ACCESSIBLE (view), GTK_ACCESSIBLE_ROLE_LIST);
  gtk_test_accessible_assert_property (GTK_ACCESSIBLE (view), GTK_ACCESSIBLE_PROPERTY_LABEL, "Critical path");
  g_assert_true (gtk_test_accessible_has_property (GTK_ACCESSIBLE (view), GTK_ACCESSIBLE_PROPERTY_DESCRIPTION));
  g_assert_true (gtk_widget_get_focusable (GTK_WIDGET (view)));

  shot = ws_gui_test_screenshot (GTK_WIDGET (window), "inspect-01-critical-path.png");
  /* Running bars (the timeline's green) and connectors (its red). */
  g_assert_cmpuint (ws_gui_test_count_colour (GTK_WIDGET (window), shot, GTK_WIDGET (view), 0x26a269, 8), >, 500);
  g_assert_cmpuint (ws_gui_test_count_colour (GTK_WIDGET (window), shot, GTK_WIDGET (view), 0xe01b24, 8), >, 20);
  g_clear_object (&shot);

  /* 2. Click the first segment on a readier: it shows in the side panel;
   * Show in Timeline selects its event there. */
  {
    const WsCriticalSegment *seg = ws_critical_path_get_segment (path, other);
    double width = gtk_widget_get_width (GTK_WIDGET (view)), x0, x1, y, h;
    g_autofree char *who = thread_label (trace, seg->thread);

    /* Zoom in on it so that it is wide enough to hit in the middle. */
    ws_critical_path_renderer_set_visible (renderer, seg->start - (seg->end - seg->start),
                                           seg->end + (seg->end - seg->start));
    gtk_widget_queue_draw (GTK_WIDGET (view));
    x0 = ws_critical_path_renderer_time_to_x (renderer, width, seg->start);
    x1 = ws_critical_path_renderer_time_to_x (renderer, width, seg->end);
    ws_critical_path_renderer_get_bar_extents (renderer, ws_critical_path_renderer_get_thread_lane (renderer, seg->thread),
                                               &y, &h);
    ws_gui_test_click_at (GTK_WIDGET (view), (x0 + x1) / 2, y + h / 2);
    g_assert_cmpuint (ws_gui_test_graph_selected_segment (page), ==, other);
    g_assert_cmpstr (ws_node_details_get_title (details_of (page)), ==, who);
    gtk_widget_activate_action (GTK_WIDGET (page), "graph.show-in-timeline", NULL);
    if (seg->event != WS_NONE)
      g_assert_cmpuint (ws_timeline_viewport_get_selected_event (viewport), ==, seg->event);
    else
      {
        /* A run span of that thread covering the segment's start. */
        guint e = ws_timeline_viewport_get_selected_event (viewport);
        const WsEvent *ev;

        g_assert_cmpuint (e, !=, WS_NONE);
        ev = ws_trace_get_event (trace, e);
        g_assert_cmpuint (ev->thread, ==, seg->thread);
        g_assert_cmpint (ev->time, <=, seg->start);
        g_assert_cmpint (ev->time + ws_event_duration (ev), >, seg->start);
      }
    shot = ws_gui_test_screenshot (GTK_WIDGET (window), "inspect-02-segment-selected.png");
    /* The selection ring, in the accent colour. */
    g_assert_cmpuint (ws_gui_test_count_colour (GTK_WIDGET (window), shot, GTK_WIDGET (view), 0x1c71d8, 8), >, 20);
    g_clear_object (&shot);
  }

  /* Keyboard: Right goes to the next segment, F shows the whole window. */
  g_assert_true (ws_gui_test_press_key_in (GTK_WIDGET (view), GDK_KEY_Right, 0));
  g_assert_cmpuint (ws_gui_test_graph_selected_segment (page), ==, other + 1);
  g_assert_true (ws_gui_test_press_key_in (GTK_WIDGET (view), GDK_KEY_f, 0));
  g_assert_cmpfloat (ws_critical_path_view_get_zoom (view), ==, 1.0);
  g_assert_true (ws_gui_test_press_key_in (GTK_WIDGET (view), GDK_KEY_plus, 0));
  g_assert_cmpfloat (ws_critical_path_view_get_zoom (view), >, 1.4);
  gtk_widget_activate_action (GTK_WIDGET (page), "graph.fit", NULL);
  g_assert_cmpfloat (ws_critical_path_view_get_zoom (view), ==, 1.0);

  /* 3. Export: pictures, DOT, and JSON with the core's segments. */
  {
    g_autofree char *dir = g_dir_make_tmp ("ws-gui-inspect-XXXXXX", NULL);
    const char *names[] = { "cp.png", "cp.svg", "cp.pdf", "cp.dot", "cp.json" };
    const char *magic[] = { "\x89PNG", "<?xml", "%PDF", "digraph", "{" };

    for (guint i = 0; i < G_N_ELEMENTS (names); i++)
      {
        g_autofree char *out = g_build_filename (dir, names[i], NULL);
        g_autofree char *contents = NULL;
        gsize len;

        g_assert_true (ws_graph_page_export (page, out, &error));
        g_assert_no_error (error);
        g_assert_true (g_file_get_contents (out, &contents, &len, NULL));
        g_assert_true (g_str_has_prefix (contents, magic[i]));
        if (g_str_has_suffix (names[i], ".json"))
          {
            g_autoptr(JsonParser) parser = json_parser_new ();
            JsonObject *root;

            g_assert_true (json_parser_load_from_data (parser, contents, len, &error));
            root = json_node_get_object (json_parser_get_root (parser));
            g_assert_cmpuint (json_array_get_length (json_object_get_array_member (root, "segments")), ==, n);
          }
        g_unlink (out);
      }
    g_rmdir (dir);
  }

  /* 4. The search works on the path too: futex waits and the work of
   * their readiers on their behalf. */
  ws_graph_page_set_search_text (page, "futex");
  {
    g_autoptr(WsStackSearch) search = ws_stack_search_new (trace, "futex", NULL, NULL);
    guint expected = 0;

    for (guint i = 0; i < n; i++)
      expected += ws_critical_path_segment_matches (core, i, search);
    g_assert_cmpuint (expected, >, 0);
    g_assert_cmpuint (ws_gui_test_graph_n_matches (page), ==, expected);
  }
  ws_graph_page_set_search_text (page, "");

  /* 5. Back to the wait graph and again to the path: the mode drop-down. */
  ready = FALSE;
  ws_graph_page_set_mode (page, WS_GRAPH_MODE_WAIT_GRAPH);
  ws_gui_test_wait_for_flag (&ready, 60, "the wait graph");
  g_assert_null (ws_graph_page_get_shown (page)->path);
  g_assert_nonnull (ws_graph_page_get_shown (page)->scene);
  ready = FALSE;
  ws_graph_page_set_mode (page, WS_GRAPH_MODE_CRITICAL_PATH);
  ws_gui_test_wait_for_flag (&ready, 60, "the critical path again");
  g_assert_cmpuint (ws_critical_path_get_n_segments (ws_graph_page_get_shown (page)->path), ==, n);

  /* 6. Dark style. */
  adw_style_manager_set_color_scheme (adw_style_manager_get_default (), ADW_COLOR_SCHEME_FORCE_DARK);
  shot = ws_gui_test_screenshot (GTK_WIDGET (window), "inspect-03-critical-path-dark.png");
  g_assert_cmpuint (ws_gui_test_count_colour (GTK_WIDGET (window), shot, GTK_WIDGET (view), 0x1e1e1e, 8), >, 10000);
  g_assert_cmpuint (ws_gui_test_count_colour (GTK_WIDGET (window), shot, GTK_WIDGET (view), 0x33d17a, 8), >, 500);
  g_clear_object (&shot);
  adw_style_manager_set_color_scheme (adw_style_manager_get_default (), ADW_COLOR_SCHEME_DEFAULT);

  ws_gui_test_close_window (GTK_WIDGET (window));
}

static gboolean
child_revealed (gpointer revealer)
{
  return gtk_revealer_get_child_revealed (GTK_REVEALER (revealer));
}

/* The page's Inspector, found as a user finds it: in the widget tree. */
static WsInspectorPanel *
inspector_of (WsGraphPage *page)
{
  GtkWidget *panel = ws_gui_test_find_child (GTK_WIDGET (page), WS_TYPE_INSPECTOR_PANEL);

  g_assert_nonnull (panel);
  return WS_INSPECTOR_PANEL (panel);
}

static const WsFinding *
find_kind (GPtrArray     *findings,
           WsFindingKind  kind,
           guint         *index)
{
  for (guint i = 0; findings && i < findings->len; i++)
    {
      const WsFinding *f = g_ptr_array_index (findings, i);
      if (f->kind == kind)
        {
          if (index)
            *index = i;
          return f;
        }
    }
  return NULL;
}

static void
test_inspector (void)
{
  g_autoptr(GdkTexture) shot = NULL;
  g_autoptr(GError) error = NULL;
  WsDocument *document;
  WsWindow *window = open_window ("io-fsync", &document);
  WsTrace *trace = ws_document_get_trace (document);
  WsTimelineViewport *viewport = ws_document_get_viewport (document);
  WsGraphPage *page = WS_GRAPH_PAGE (ws_gui_test_find_child (GTK_WIDGET (window), WS_TYPE_GRAPH_PAGE));
  gboolean ready = FALSE, inspected = FALSE;
  const WsFinding *under;
  guint writer, index = 0, n_waits = 0;
  WsSymptom symptom;

  g_assert_nonnull (page);
  g_signal_connect (page, "ready", G_CALLBACK (ws_gui_test_flag_cb), &ready);
  g_signal_connect (page, "inspected", G_CALLBACK (ws_gui_test_flag_cb), &inspected);

  /* 1. fsync-append over 300 ms: its wait graph, and the inspector. */
  writer = ws_gui_test_find_thread (trace, "fsync-append");
  g_assert_cmpuint (writer, !=, WS_NONE);
  symptom.thread = writer;
  symptom.t0 = ws_trace_get_start_time (trace) + 500000000;
  symptom.t1 = symptom.t0 + 300000000;
  ws_timeline_viewport_set_selection (viewport, writer, symptom.t0, symptom.t1);
  gtk_widget_activate_action (GTK_WIDGET (window), "win.show-wait-graph", NULL);
  ws_gui_test_wait_for_flag (&ready, 60, "the wait graph");
  ws_graph_page_show_inspector (page, TRUE);
  ws_gui_test_wait_for_flag (&inspected, 60, "the inspector");
  g_assert_false (ws_inspector_panel_get_busy (inspector_of (page)));

  /* The core's findings for the same graph. */
  {
    g_autoptr(WsWaitGraph) graph = ws_wait_graph_build (trace, &symptom, NULL, NULL, &error);
    g_autoptr(GPtrArray) core = NULL;
    const WsFinding *expected;
    GPtrArray *shown = ws_inspector_panel_get_findings (inspector_of (page));
    g_autofree char *title = NULL;
    g_autofree char *want = NULL;
    double pct;

    g_assert_no_error (error);
    core = ws_inspect_wait_graph (graph, NULL);
    for (guint i = 0; i < ws_wait_graph_get_n_nodes (graph); i++)
      n_waits += ws_wait_graph_get_node (graph, i)->kind == WS_WAIT_NODE_WAIT;
    expected = find_kind (core, WS_FINDING_UNDER_CONNECTION, NULL);
    g_assert_nonnull (expected);
    g_assert_nonnull (shown);
    g_assert_cmpuint (shown->len, ==, core->len);
    under = find_kind (shown, WS_FINDING_UNDER_CONNECTION, &index);
    g_assert_nonnull (under);
    g_assert_cmpuint (under->count, ==, expected->count);
    g_assert_cmpint (under->cost, ==, expected->cost);
    /* All of them listed (the page asks for every one), not a top ten. */
    g_assert_cmpuint (under->events->len, ==, under->count);
    g_assert_cmpuint (under->count, >, 100);

    /* The headline: "N waits (P %) have no recorded readier". */
    pct = 100.0 * under->count / n_waits;
    want = g_strdup_printf ("%'u waits (%.*f %%) have no recorded readier", under->count, pct >= 10 ? 0 : 1, pct);
    title = ws_inspector_panel_dup_finding_title (inspector_of (page), index);
    g_test_message ("graph under-connection: %s", title);
    g_assert_cmpstr (title, ==, want);
  }

  /* The list shows it, with the headline, in the revealed inspector. */
  {
    GtkWidget *list = ws_gui_test_find_child (GTK_WIDGET (page), GTK_TYPE_LIST_BOX);
    GtkListBoxRow *row;
    GtkWidget *revealer = gtk_widget_get_ancestor (list, GTK_TYPE_REVEALER);

    g_assert_true (gtk_revealer_get_reveal_child (GTK_REVEALER (revealer)));
    /* The slide takes 250 ms, longer on a loaded machine. */
    ws_gui_test_wait_until (child_revealed, revealer, 10, "the inspector's slide");
    g_assert_true (gtk_revealer_get_child_revealed (GTK_REVEALER (revealer)));
    row = gtk_list_box_get_row_at_index (GTK_LIST_BOX (list), index);
    g_assert_nonnull (row);
    g_assert_true (gtk_widget_is_drawable (GTK_WIDGET (row)));
  }

  /* 2. Choose it: its waits are highlighted in the graph (every node of
   * one of them) and the timeline's search holds exactly them. */
  ws_inspector_panel_select_finding (inspector_of (page), index);
  {
    WsGraphScene *scene = ws_graph_page_get_shown (page)->scene;
    g_autoptr(GHashTable) set = g_hash_table_new (g_direct_hash, g_direct_equal);
    WsStackSearch *search = ws_window_get_search (window);
    guint nodes = 0;

    for (guint i = 0; i < under->events->len; i++)
      g_hash_table_add (set, GUINT_TO_POINTER (g_array_index (under->events, guint32, i)));
    for (guint i = 0; i < ws_graph_scene_get_n_nodes (scene); i++)
      {
        const WsSceneNode *node = ws_graph_scene_get_node (scene, i);
        nodes += node->event != WS_NONE && g_hash_table_contains (set, GUINT_TO_POINTER (node->event));
      }
    g_assert_cmpuint (nodes, >, 0);
    g_assert_cmpuint (ws_gui_test_graph_n_matches (page), ==, nodes);
    g_assert_nonnull (search);
    g_assert_true (g_str_has_prefix (ws_stack_search_get_pattern (search), "Inspector: "));
    g_assert_cmpuint (ws_stack_search_get_n_matches (search), ==, under->count);
    for (guint i = 0; i < under->events->len; i++)
      g_assert_true (ws_stack_search_matches_event (search, g_array_index (under->events, guint32, i)));
    /* The first is selected, in the graph and the timeline. */
    g_assert_cmpuint (ws_graph_view_get_selected_node (WS_GRAPH_VIEW (ws_gui_test_find_child (GTK_WIDGET (page), WS_TYPE_GRAPH_VIEW))), !=, WS_NONE);
    g_assert_true (g_hash_table_contains (set, GUINT_TO_POINTER (ws_timeline_viewport_get_selected_event (viewport))));
  }
  shot = ws_gui_test_screenshot (GTK_WIDGET (window), "inspect-04-inspector-wait-graph.png");
  g_clear_object (&shot);

  /* 3. The same finding on the critical path: the segments in those
   * waits, or on their behalf. */
  ready = FALSE;
  inspected = FALSE;
  ws_graph_page_set_mode (page, WS_GRAPH_MODE_CRITICAL_PATH);
  ws_gui_test_wait_for_flag (&ready, 60, "the critical path");
  ws_gui_test_wait_for_flag (&inspected, 60, "the inspector on the path's window");
  under = find_kind (ws_inspector_panel_get_findings (inspector_of (page)), WS_FINDING_UNDER_CONNECTION, &index);
  g_assert_nonnull (under);
  ws_inspector_panel_select_finding (inspector_of (page), index);
  {
    WsCriticalPath *path = ws_graph_page_get_shown (page)->path;
    g_autoptr(WsStackSearch) search = ws_stack_search_new_for_events (trace, "x", (const guint32 *) under->events->data,
                                                                      under->events->len);
    guint expected = 0, unknown = 0;

    for (guint i = 0; i < ws_critical_path_get_n_segments (path); i++)
      {
        const WsCriticalSegment *seg = ws_critical_path_get_segment (path, i);

        expected += (seg->event != WS_NONE && ws_stack_search_matches_event (search, seg->event)) ||
                    (seg->on_behalf_of != WS_NONE && ws_stack_search_matches_event (search, seg->on_behalf_of));
        /* The path's blocked-unknown segments are such waits. */
        unknown += seg->state == WS_CRITICAL_BLOCKED_UNKNOWN && ws_stack_search_matches_event (search, seg->event);
      }
    g_test_message ("path: %u matches (%s), %u expected, search entry %s", ws_gui_test_graph_n_matches (page),
                    ws_gui_test_graph_match_status (page), expected,
                    gtk_editable_get_text (GTK_EDITABLE (ws_gui_test_find_named (GTK_WIDGET (page), "graph-search"))));
    g_assert_cmpuint (unknown, >, 0);
    g_assert_cmpuint (ws_gui_test_graph_n_matches (page), ==, expected);
    g_assert_cmpuint (ws_gui_test_graph_selected_segment (page), !=, WS_NONE);
  }
  shot = ws_gui_test_screenshot (GTK_WIDGET (window), "inspect-05-inspector-critical-path.png");
  g_clear_object (&shot);

  /* 4. The whole trace, from the window's menu. */
  inspected = FALSE;
  gtk_widget_activate_action (GTK_WIDGET (window), "win.inspect-trace", NULL);
  g_assert_cmpint (ws_inspector_panel_get_scope (inspector_of (page)), ==, WS_INSPECTOR_SCOPE_TRACE);
  ws_gui_test_wait_for_flag (&inspected, 60, "the whole-trace inspection");
  {
    g_autoptr(GPtrArray) core = ws_inspect_trace (trace, NULL);
    const WsFinding *expected = find_kind (core, WS_FINDING_UNDER_CONNECTION, NULL);
    g_autofree char *title = NULL;
    g_autofree char *want = NULL;
    guint waits = ws_trace_count_kind (trace, WS_EVENT_WAIT);
    double pct;

    under = find_kind (ws_inspector_panel_get_findings (inspector_of (page)), WS_FINDING_UNDER_CONNECTION, &index);
    g_assert_nonnull (under);
    g_assert_nonnull (expected);
    g_assert_cmpuint (ws_inspector_panel_get_findings (inspector_of (page))->len, ==, core->len);
    g_assert_cmpuint (under->count, ==, expected->count);
    pct = 100.0 * under->count / waits;
    want = g_strdup_printf ("%'u waits (%.*f %%) have no recorded readier", under->count, pct >= 10 ? 0 : 1, pct);
    title = ws_inspector_panel_dup_finding_title (inspector_of (page), index);
    g_test_message ("trace under-connection: %s", title);
    g_assert_cmpstr (title, ==, want);
  }
  shot = ws_gui_test_screenshot (GTK_WIDGET (window), "inspect-06-inspector-trace.png");
  g_clear_object (&shot);

  /* 5. Export the findings shown: JSON with as many findings as the
   * panel, the same kinds and counts in the same order; Markdown with one
   * numbered headline each. */
  {
    g_autofree char *dir = g_dir_make_tmp ("ws-findings-XXXXXX", &error);
    g_autofree char *json_path = NULL;
    g_autofree char *md_path = NULL;
    g_autofree char *md = NULL;
    g_autofree char *bad_path = NULL;
    g_autoptr(JsonParser) parser = json_parser_new ();
    g_auto(GStrv) lines = NULL;
    GPtrArray *shown = ws_inspector_panel_get_findings (inspector_of (page));
    JsonArray *array;
    guint numbered = 0;

    g_assert_no_error (error);
    json_path = g_build_filename (dir, "findings.json", NULL);
    md_path = g_build_filename (dir, "findings.md", NULL);
    bad_path = g_build_filename (dir, "findings.png", NULL);
    g_assert_true (ws_inspector_panel_export_findings (inspector_of (page), json_path, &error));
    g_assert_no_error (error);
    g_assert_true (json_parser_load_from_file (parser, json_path, &error));
    g_assert_no_error (error);
    g_assert_true (JSON_NODE_HOLDS_ARRAY (json_parser_get_root (parser)));
    array = json_node_get_array (json_parser_get_root (parser));
    g_assert_cmpuint (json_array_get_length (array), ==, shown->len);
    g_assert_cmpuint (shown->len, >, 0);
    for (guint i = 0; i < shown->len; i++)
      {
        const WsFinding *f = g_ptr_array_index (shown, i);
        JsonObject *o = json_array_get_object_element (array, i);

        g_assert_cmpstr (json_object_get_string_member (o, "kind"), ==, ws_finding_kind_to_string (f->kind));
        g_assert_cmpint (json_object_get_int_member (o, "count"), ==, f->count);
        g_assert_cmpuint (json_array_get_length (json_object_get_array_member (o, "threads")), ==, f->threads->len);
      }
    g_assert_cmpint (json_object_get_int_member (json_array_get_object_element (array, index), "count"), ==,
                     under->count);

    g_assert_true (ws_inspector_panel_export_findings (inspector_of (page), md_path, &error));
    g_assert_no_error (error);
    g_assert_true (g_file_get_contents (md_path, &md, NULL, &error));
    g_assert_no_error (error);
    lines = g_strsplit (md, "\n", -1);
    for (guint i = 0; lines[i] != NULL; i++)
      {
        g_autofree char *prefix = g_strdup_printf ("%u. **", numbered + 1);
        numbered += g_str_has_prefix (lines[i], prefix);
      }
    g_assert_cmpuint (numbered, ==, shown->len);
    {
      g_autofree char *title = ws_inspector_panel_dup_finding_title (inspector_of (page), index);
      g_assert_nonnull (strstr (md, title));
    }

    g_assert_false (ws_inspector_panel_export_findings (inspector_of (page), bad_path, &error));
    g_assert_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_FILENAME);
    g_clear_error (&error);
    g_assert_false (g_file_test (bad_path, G_FILE_TEST_EXISTS));
    g_unlink (json_path);
    g_unlink (md_path);
    g_rmdir (dir);
  }

  /* Ctrl+I's action hides it. */
  gtk_widget_activate_action (GTK_WIDGET (page), "graph.toggle-inspector", NULL);
  {
    GtkWidget *list = ws_gui_test_find_child (GTK_WIDGET (page), GTK_TYPE_LIST_BOX);
    g_assert_false (gtk_revealer_get_reveal_child (GTK_REVEALER (gtk_widget_get_ancestor (list, GTK_TYPE_REVEALER))));
  }

  ws_gui_test_close_window (GTK_WIDGET (window));
}

/* The daemon-bridge trace of test-inspector.c (see its comment): app
 * waits on app-w, which waits on dbus-daemon, which waits on other; the
 * daemon alone joins {app, db} and {other}. */
static WsTestTrace *
daemon_bridge_trace (void)
{
  WsTestTrace *tt = ws_test_trace_new ();
  WsStackId timer = ws_test_trace_stack (tt, "asm_sysvec_apic_timer_interrupt;hrtimer_interrupt;__hrtimer_run_queues;hrtimer_wakeup;try_to_wake_up");
  guint A = ws_test_trace_thread (tt, 100, 100, "app");
  guint AW = ws_test_trace_thread (tt, 101, 100, "app-w");
  guint D = ws_test_trace_thread (tt, 200, 200, "db");
  guint O = ws_test_trace_thread (tt, 300, 300, "other");
  guint B = ws_test_trace_thread (tt, 50, 50, "dbus-daemon");
  guint K = ws_test_trace_thread (tt, 60, 60, "kworker/0:1");
  guint w1, w2, w3, w4, w5, w6, w7;

  ws_test_trace_run (tt, A, 0, 10, 0);
  w1 = ws_test_trace_wait (tt, A, 10, 100, 0);
  ws_test_trace_run (tt, A, 100, 110, 0);
  w2 = ws_test_trace_wait (tt, A, 110, 200, 0);
  ws_test_trace_run (tt, A, 200, 210, 0);
  w5 = ws_test_trace_wait (tt, A, 210, 300, 0);
  ws_test_trace_run (tt, A, 300, 310, 0);
  w7 = ws_test_trace_wait (tt, A, 310, 400, 0);
  ws_test_trace_run (tt, A, 400, 410, 0);
  ws_test_trace_wait (tt, A, 410, 500, 0);
  ws_test_trace_run (tt, A, 500, 510, 0);
  ws_test_trace_run (tt, AW, 20, 50, 0);
  w3 = ws_test_trace_wait (tt, AW, 50, 90, 0);
  ws_test_trace_run (tt, AW, 90, 120, 0);
  ws_test_trace_run (tt, B, 40, 60, 0);
  w4 = ws_test_trace_wait (tt, B, 60, 85, 0);
  ws_test_trace_run (tt, B, 85, 95, 0);
  ws_test_trace_run (tt, O, 0, 70, 0);
  ws_test_trace_run (tt, O, 70, 100, 0);
  ws_test_trace_run (tt, D, 120, 150, 0);
  ws_test_trace_run (tt, D, 150, 420, 0);
  ws_test_trace_run (tt, K, 220, 240, 0);
  w6 = ws_test_trace_wait (tt, K, 240, 290, 0);
  ws_test_trace_run (tt, K, 290, 310, 0);
  ws_test_trace_wake (tt, AW, w1, 0);
  ws_test_trace_wake (tt, D, w2, 0);
  ws_test_trace_wake (tt, B, w3, 0);
  ws_test_trace_wake (tt, O, w4, 0);
  ws_test_trace_wake (tt, K, w5, 0);
  ws_test_trace_wake (tt, D, w6, 0);
  ws_test_trace_wake (tt, D, w7, timer);
  ws_test_trace_finish (tt);
  return tt;
}

static void
test_over_connection_threads (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("ws-bridge-XXXXXX", &error);
  g_autofree char *path = NULL;
  g_autoptr(GFile) file = NULL;
  g_autoptr(GdkTexture) shot = NULL;
  WsTestTrace *tt = daemon_bridge_trace ();
  WsWindow *window;
  WsDocument *document;
  WsTrace *trace;
  WsTimelineViewport *viewport;
  WsGraphPage *page;
  gboolean ready = FALSE, inspected = FALSE;
  const WsFinding *over, *under;
  guint over_index = 0, under_index = 0, app, daemon;
  GArray *threads;

  g_assert_no_error (error);
  path = g_build_filename (dir, "daemon-bridge.json", NULL);
  g_assert_true (ws_json_trace_save (ws_test_trace_get_trace (tt), path, NULL, &error));
  g_assert_no_error (error);
  ws_test_trace_free (tt);

  window = ws_window_new (GTK_APPLICATION (the_app));
  gtk_window_set_default_size (GTK_WINDOW (window), 1580, 980);
  gtk_window_present (GTK_WINDOW (window));
  file = g_file_new_for_path (path);
  document = ws_gui_test_open_trace (window, path);
  ws_gui_test_settle (GTK_WIDGET (window));
  trace = ws_document_get_trace (document);
  viewport = ws_document_get_viewport (document);
  page = WS_GRAPH_PAGE (ws_gui_test_find_child (GTK_WIDGET (window), WS_TYPE_GRAPH_PAGE));
  g_assert_nonnull (page);
  g_signal_connect (page, "ready", G_CALLBACK (ws_gui_test_flag_cb), &ready);
  g_signal_connect (page, "inspected", G_CALLBACK (ws_gui_test_flag_cb), &inspected);

  /* ⟨app, 0, 510⟩: the wait graph of test-inspector.c, and its findings. */
  app = ws_gui_test_find_thread (trace, "app");
  daemon = ws_gui_test_find_thread (trace, "dbus-daemon");
  g_assert_cmpuint (app, !=, WS_NONE);
  g_assert_cmpuint (daemon, !=, WS_NONE);
  ws_timeline_viewport_set_selection (viewport, app, ws_trace_get_start_time (trace), ws_trace_get_start_time (trace) + 510);
  gtk_widget_activate_action (GTK_WIDGET (window), "win.show-wait-graph", NULL);
  ws_gui_test_wait_for_flag (&ready, 60, "the wait graph");
  ws_graph_page_show_inspector (page, TRUE);
  ws_gui_test_wait_for_flag (&inspected, 60, "the inspector");
  over = find_kind (ws_inspector_panel_get_findings (inspector_of (page)), WS_FINDING_OVER_CONNECTION, &over_index);
  under = find_kind (ws_inspector_panel_get_findings (inspector_of (page)), WS_FINDING_UNDER_CONNECTION, &under_index);
  g_assert_nonnull (over);
  g_assert_nonnull (under);
  /* The bridge is dbus-daemon alone, through w3 and w4. */
  g_assert_cmpuint (over->threads->len, ==, 1);
  g_assert_cmpuint (g_array_index (over->threads, guint32, 0), ==, daemon);
  g_assert_cmpuint (over->count, ==, 2);
  g_assert_null (ws_graph_page_get_bridging_threads (page));
  g_assert_cmpuint (ws_timeline_viewport_get_n_highlighted_threads (viewport), ==, 0);

  /* Choosing it: its two waits are the timeline's search, and the
   * daemon's row is highlighted, no other. */
  ws_inspector_panel_select_finding (inspector_of (page), over_index);
  threads = ws_graph_page_get_bridging_threads (page);
  g_assert_true (threads == over->threads);
  g_assert_cmpuint (ws_stack_search_get_n_matches (ws_window_get_search (window)), ==, 2);
  g_assert_cmpuint (ws_timeline_viewport_get_n_highlighted_threads (viewport), ==, 1);
  g_assert_true (ws_timeline_viewport_is_thread_highlighted (viewport, daemon));
  for (guint t = 0; t < ws_trace_get_n_threads (trace); t++)
    g_assert_true (ws_timeline_viewport_is_thread_highlighted (viewport, t) == (t == daemon));
  shot = ws_gui_test_screenshot (GTK_WIDGET (window), "inspect-07-over-connection-threads.png");
  g_clear_object (&shot);

  /* The under-connection (w8 of app, which the finding lists as its
   * thread) bridges nothing: the highlight goes. */
  g_assert_cmpuint (under->threads->len, ==, 1);
  ws_inspector_panel_select_finding (inspector_of (page), under_index);
  g_assert_null (ws_graph_page_get_bridging_threads (page));
  g_assert_cmpuint (ws_stack_search_get_n_matches (ws_window_get_search (window)), ==, 1);
  g_assert_cmpuint (ws_timeline_viewport_get_n_highlighted_threads (viewport), ==, 0);
  g_assert_false (ws_timeline_viewport_is_thread_highlighted (viewport, daemon));

  /* Back to the over-connection: the daemon's row again. */
  ws_inspector_panel_select_finding (inspector_of (page), over_index);
  g_assert_true (ws_timeline_viewport_is_thread_highlighted (viewport, daemon));

  /* Escape in the timeline clears it, as it clears the selection. */
  gtk_widget_activate_action (GTK_WIDGET (ws_window_get_timeline_view (window)), "timeline.clear-selection", NULL);
  g_assert_cmpuint (ws_timeline_viewport_get_n_highlighted_threads (viewport), ==, 0);

  /* A search typed in the window replaces the finding's: so do its rows. */
  ws_inspector_panel_select_finding (inspector_of (page), over_index);
  g_assert_true (ws_timeline_viewport_is_thread_highlighted (viewport, daemon));
  ws_window_set_search_text (window, "try_to_wake_up");
  /* After the entry's search delay. */
  ws_gui_test_wait_until (none_highlighted, viewport, 60, "the typed search to replace the finding's highlighted rows");

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

  g_test_add_func ("/gui/inspect/critical-path-py-locks", test_critical_path);
  g_test_add_func ("/gui/inspect/inspector-io-fsync", test_inspector);
  g_test_add_func ("/gui/inspect/over-connection-threads", test_over_connection_threads);

  status = g_test_run ();
  g_object_unref (the_app);
  return status;
}
