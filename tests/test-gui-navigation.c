/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The pointer behaviour the graph and the critical-path views share
 * (WsViewNavigation, ws-view-gestures.c), on pg-tpcb's first transaction:
 * a drag pans by what the pointer moved once past 4 px (along time only
 * for the path) and its release does not select; a click selects the item
 * under the pointer, a double click or Enter activates it; a wheel notch
 * pans (the path leaves vertical scrolling to its lanes); + zooms.  The
 * gestures are driven through the views' own controllers.
 */
#include "config.h"

#include <math.h>

#include "ws-critical-path-run.h"
#include "ws-critical-path-view.h"
#include "ws-graph-view.h"
#include "ws-gui-test-util.h"
#include "ws-scenario-rules.h"
#include "ws-trace-loader.h"
#include "ws-wait-graph-run.h"

static WsTrace *
load_transaction (WsSymptom *s)
{
  g_autofree char *path = g_build_filename (g_getenv ("WS_TEST_DATA"), "pg-tpcb.perf.txt.gz", NULL);
  g_autoptr(WsScenarioRules) rules = ws_scenario_rules_new_default ();
  g_autoptr(GError) error = NULL;
  WsTrace *trace = ws_trace_loader_load_full (path, NULL, rules, NULL, NULL, NULL, &error);

  g_assert_no_error (error);
  g_assert_true (ws_symptom_from_scenario_instance (trace, 0, s));
  return trace;
}

static GtkEventController *
find_controller (GtkWidget *widget,
                 GType      type)
{
  g_autoptr(GListModel) controllers = gtk_widget_observe_controllers (widget);

  for (guint i = 0; i < g_list_model_get_n_items (controllers); i++)
    {
      g_autoptr(GtkEventController) c = g_list_model_get_item (controllers, i);

      if (G_TYPE_CHECK_INSTANCE_TYPE (c, type))
        return c;   /* the widget keeps it */
    }
  g_assert_not_reached ();
}

static void
emit_press (GtkWidget *widget,
            int        n_press,
            double     x,
            double     y)
{
  GtkEventController *click = find_controller (widget, GTK_TYPE_GESTURE_CLICK);

  g_signal_emit_by_name (click, "pressed", n_press, x, y);
  g_signal_emit_by_name (click, "released", n_press, x, y);
}

static gboolean
emit_scroll (GtkWidget *widget,
             double     dx,
             double     dy)
{
  gboolean handled = FALSE;

  g_signal_emit_by_name (find_controller (widget, GTK_TYPE_EVENT_CONTROLLER_SCROLL), "scroll", dx, dy, &handled);
  return handled;
}

static gboolean
allocated (gpointer widget)
{
  return gtk_widget_get_width (widget) > 100 && gtk_widget_get_height (widget) > 50;
}

static GtkWidget *
show_in_window (GtkWidget *view)
{
  GtkWidget *window = gtk_window_new ();

  gtk_window_set_default_size (GTK_WINDOW (window), 900, 600);
  gtk_window_set_child (GTK_WINDOW (window), view);
  gtk_window_present (GTK_WINDOW (window));
  ws_gui_test_wait_until (allocated, view, 30, "the view to be allocated");
  return window;
}

static void
count_activation (GtkWidget *view,
                  guint      item,
                  guint     *last)
{
  *last = item;
}

static void
test_graph_view (void)
{
  WsSymptom s;
  g_autoptr(WsTrace) trace = load_transaction (&s);
  g_autoptr(GError) error = NULL;
  WsWaitGraphSettings settings;
  g_autoptr(WsWaitGraph) graph = NULL;
  g_autoptr(WsGraphScene) scene = NULL;
  GtkWidget *widget = ws_graph_view_new ();
  WsGraphView *view = WS_GRAPH_VIEW (widget);
  GtkWidget *window = show_in_window (widget);
  GtkEventController *drag = find_controller (widget, GTK_TYPE_GESTURE_DRAG);
  const WsGraphViewport *vp = ws_graph_view_get_viewport (view);
  guint activated = WS_NONE;
  guint target;
  double x0, y0, x, y;
  WsGraphRect r;

  ws_wait_graph_settings_init (&settings, &s);
  graph = ws_wait_graph_run (trace, &settings, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  scene = ws_graph_scene_new_for_wait_graph (graph, WS_GRAPH_LAYOUT_LEFT_TO_RIGHT);
  ws_graph_view_set_scene (view, scene);
  ws_graph_view_set_zoom (view, 1.0);
  g_signal_connect (view, "node-activated", G_CALLBACK (count_activation), &activated);

  /* A drag pans once past 4 px (2 px right and down is not a drag yet),
   * by what the pointer moved, both ways. */
  x0 = vp->x;
  y0 = vp->y;
  g_signal_emit_by_name (drag, "drag-begin", 200.0, 200.0);
  g_signal_emit_by_name (drag, "drag-update", 2.0, 2.0);
  g_assert_cmpfloat (vp->x, ==, x0);
  g_signal_emit_by_name (drag, "drag-update", 120.0, -40.0);
  g_assert_cmpfloat_with_epsilon (vp->x, x0 - 120.0 / vp->scale, 1e-9);
  g_assert_cmpfloat_with_epsilon (vp->y, y0 + 40.0 / vp->scale, 1e-9);
  g_signal_emit_by_name (drag, "drag-end", 120.0, -40.0);

  /* Its release selects nothing, even over a node. */
  target = ws_graph_scene_get_root (scene);
  ws_graph_view_reveal_node (view, target);
  ws_graph_layout_get_node_rect (ws_graph_scene_get_layout (scene), target, &r);
  ws_graph_viewport_to_device (vp, r.x + r.width / 2, r.y + r.height / 2, &x, &y);
  g_signal_emit_by_name (find_controller (widget, GTK_TYPE_GESTURE_CLICK), "released", 1, x, y);
  g_assert_cmpuint (ws_graph_view_get_selected_node (view), ==, WS_NONE);

  /* A click selects, a double click and Enter activate. */
  ws_gui_test_click_at (widget, x, y);
  g_assert_cmpuint (ws_graph_view_get_selected_node (view), ==, target);
  emit_press (widget, 2, x, y);
  g_assert_cmpuint (activated, ==, target);
  activated = WS_NONE;
  g_assert_true (ws_gui_test_press_key_in (widget, GDK_KEY_Return, 0));
  g_assert_cmpuint (activated, ==, target);

  /* A wheel notch down pans 48 px down; + zooms by 1.4. */
  y0 = vp->y;
  g_assert_true (emit_scroll (widget, 0, 1));
  g_assert_cmpfloat_with_epsilon (vp->y, y0 + 48.0 / vp->scale, 1e-9);
  ws_graph_view_set_zoom (view, 1.0);
  g_assert_true (ws_gui_test_press_key_in (widget, GDK_KEY_plus, 0));
  g_assert_cmpfloat_with_epsilon (ws_graph_view_get_zoom (view), 1.4, 1e-9);

  gtk_window_destroy (GTK_WINDOW (window));
}

/* Some point of the view over a segment, found by scanning. */
static guint
find_segment (WsCriticalPathView *view,
              double             *x,
              double             *y)
{
  int w = gtk_widget_get_width (GTK_WIDGET (view)), h = gtk_widget_get_height (GTK_WIDGET (view));

  for (*y = 2; *y < h; *y += 3)
    for (*x = 2; *x < w; *x += 3)
      {
        guint segment = ws_critical_path_view_segment_at (view, *x, *y);
        if (segment != WS_NONE)
          return segment;
      }
  g_assert_not_reached ();
}

static void
test_critical_path_view (void)
{
  WsSymptom s;
  g_autoptr(WsTrace) trace = load_transaction (&s);
  g_autoptr(GError) error = NULL;
  WsCriticalPathSettings settings;
  g_autoptr(WsCriticalPath) path = NULL;
  GtkWidget *widget = ws_critical_path_view_new ();
  WsCriticalPathView *view = WS_CRITICAL_PATH_VIEW (widget);
  GtkWidget *window = show_in_window (widget);
  WsCriticalPathRenderer *renderer = ws_critical_path_view_get_renderer (view);
  GtkEventController *drag = find_controller (widget, GTK_TYPE_GESTURE_DRAG);
  guint activated = WS_NONE;
  guint segment;
  double width, x, y;
  WsTime b0, e0, b1, e1, delta;

  ws_critical_path_settings_init (&settings, &s);
  path = ws_critical_path_run (trace, &settings, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  ws_critical_path_view_set_path (view, path);
  ws_gui_test_settle (widget);
  g_signal_connect (view, "segment-activated", G_CALLBACK (count_activation), &activated);
  width = gtk_widget_get_width (widget);

  /* Zoomed in, so that there is room to pan either way. */
  ws_critical_path_view_zoom (view, 4);
  ws_critical_path_renderer_get_visible (renderer, &b0, &e0);

  /* The threshold is along time only: 2 px across and 30 px down is no
   * drag; 100 px to the left shows later times. */
  g_signal_emit_by_name (drag, "drag-begin", 400.0, 100.0);
  g_signal_emit_by_name (drag, "drag-update", 2.0, 30.0);
  ws_critical_path_renderer_get_visible (renderer, &b1, &e1);
  g_assert_cmpint (b1, ==, b0);
  g_signal_emit_by_name (drag, "drag-update", -100.0, 0.0);
  delta = ws_critical_path_renderer_x_to_time (renderer, width, -100) - ws_critical_path_renderer_x_to_time (renderer, width, 0);
  ws_critical_path_renderer_get_visible (renderer, &b1, &e1);
  g_assert_cmpint (b1, ==, b0 - delta);
  g_assert_cmpint (e1 - b1, ==, e0 - b0);
  g_signal_emit_by_name (drag, "drag-end", -100.0, 0.0);

  /* Its release selects nothing; a click selects, a double click and
   * Enter activate. */
  segment = find_segment (view, &x, &y);
  g_signal_emit_by_name (find_controller (widget, GTK_TYPE_GESTURE_CLICK), "released", 1, x, y);
  g_assert_cmpuint (ws_critical_path_view_get_selected_segment (view), ==, WS_NONE);
  ws_gui_test_click_at (widget, x, y);
  g_assert_cmpuint (ws_critical_path_view_get_selected_segment (view), ==, segment);
  emit_press (widget, 2, x, y);
  g_assert_cmpuint (activated, ==, segment);
  activated = WS_NONE;
  g_assert_true (ws_gui_test_press_key_in (widget, GDK_KEY_KP_Enter, 0));
  g_assert_cmpuint (activated, ==, segment);

  /* A vertical wheel notch is the lanes' (not handled); a horizontal one
   * pans a tenth of the span; + zooms. */
  ws_critical_path_renderer_get_visible (renderer, &b0, &e0);
  g_assert_false (emit_scroll (widget, 0, 1));
  g_assert_true (emit_scroll (widget, -1, 0));
  ws_critical_path_renderer_get_visible (renderer, &b1, &e1);
  g_assert_cmpint (b1, ==, b0 - (WsTime) (0.1 * (e0 - b0)));
  g_assert_true (ws_gui_test_press_key_in (widget, GDK_KEY_plus, 0));
  ws_critical_path_renderer_get_visible (renderer, &b0, &e0);
  g_assert_cmpfloat_with_epsilon ((double) (e1 - b1) / (double) (e0 - b0), 1.5, 1e-3);

  gtk_window_destroy (GTK_WINDOW (window));
}

int
main (int    argc,
      char **argv)
{
  WsApplication *app = ws_gui_test_init (&argc, &argv);
  int status;

  if (g_getenv ("WS_TEST_DATA") != NULL)
    {
      g_test_add_func ("/gui/navigation/graph-view", test_graph_view);
      g_test_add_func ("/gui/navigation/critical-path-view", test_critical_path_view);
    }
  status = g_test_run ();
  g_object_unref (app);
  return status;
}
