/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * A layout that fits (issue 13): the real window on the pg-tpcb trace,
 * each main page shown with its analysis run, at 1280×720 and at
 * 1920×1080, in the light and in the dark style.  For each, a screenshot
 * (layout-PAGE-WxH-STYLE.png) and a walk over the widget tree:
 *
 *  - no label is cut short with "…" unless it is allowed to be: it shows
 *    its whole text in a tooltip, or it is one of the kinds of text that
 *    may run long by nature (stack frames, file paths), marked with the
 *    style class "ws-may-ellipsize";
 *  - no widget is allocated less than its minimum size (it would be
 *    drawn clipped), and the window itself is not larger than asked;
 *  - every child of a toolbar is shown: mapped, with a size, inside the
 *    window and what its scrolled window shows.
 *
 * The Welcome and Record pages and the Preferences window are checked the
 * same way.
 */
#include "config.h"

#include <adwaita.h>
#include <string.h>

#include "ws-critical-path-view.h"
#include "ws-graph-page.h"
#include "ws-gui-test-util.h"
#include "ws-mining-form.h"
#include "ws-mining-page.h"
#include "ws-overview-page.h"
#include "ws-findings-page.h"
#include "ws-pin-list.h"
#include "ws-preferences-window.h"
#include "ws-session.h"
#include "ws-session-file.h"
#include "ws-thread-table.h"
#include "ws-window.h"

static WsApplication *the_app;

typedef struct {
  int width, height;
} Size;

static const Size sizes[] = { { 1280, 720 }, { 1920, 1080 } };
static const Size *current_size = &sizes[0];   /* of the main window, in the screenshots' names */

/* ------------------------------------------------------------------ */
/* The checks                                                           */

static char *
widget_path (GtkWidget *widget)
{
  GString *s = g_string_new (NULL);

  for (GtkWidget *w = widget; w != NULL; w = gtk_widget_get_parent (w))
    {
      const char *name = gtk_widget_get_name (w);
      g_string_prepend (s, G_OBJECT_TYPE_NAME (w));
      if (name != NULL && strcmp (name, G_OBJECT_TYPE_NAME (w)) != 0)
        {
          g_string_insert (s, strlen (G_OBJECT_TYPE_NAME (w)), "#");
          g_string_insert (s, strlen (G_OBJECT_TYPE_NAME (w)) + 1, name);
        }
      if (gtk_widget_get_parent (w) != NULL)
        g_string_prepend (s, " > ");
    }
  return g_string_free (s, FALSE);
}

/* A label may show "…" when the user can read the whole text anyway (its
 * tooltip), or when it (or a container of it) is marked as text that runs
 * long by nature. */
static gboolean
may_ellipsize (GtkWidget *label)
{
  if (gtk_widget_get_tooltip_text (label) != NULL || gtk_widget_get_tooltip_markup (label) != NULL)
    return TRUE;
  for (GtkWidget *w = label; w != NULL; w = gtk_widget_get_parent (w))
    if (gtk_widget_has_css_class (w, "ws-may-ellipsize"))
      return TRUE;
  return FALSE;
}

/* Whether @widget cuts off what its children draw past its edges: a
 * paned does (each side in its own clip), so does a widget whose
 * overflow is hidden; a viewport shows a part of its child on purpose. */
static gboolean
clips (GtkWidget *widget)
{
  if (GTK_IS_VIEWPORT (widget) || GTK_IS_SCROLLABLE (widget))
    return FALSE;
  return GTK_IS_PANED (widget) || gtk_widget_get_overflow (widget) == GTK_OVERFLOW_HIDDEN;
}

typedef struct {
  GPtrArray *problems;
  guint      n_labels;
  guint      n_widgets;
} Walk;

static void
check_widget (GtkWidget *widget,
              Walk      *walk)
{
  GtkAllocation a;
  int min_w, min_h, nat;

  if (!gtk_widget_get_mapped (widget))
    return;
  walk->n_widgets++;
  gtk_widget_get_allocation (widget, &a);
  if (GTK_IS_LABEL (widget))
    {
      PangoLayout *layout = gtk_label_get_layout (GTK_LABEL (widget));

      walk->n_labels++;
      if (pango_layout_is_ellipsized (layout) && !may_ellipsize (widget))
        {
          g_autofree char *path = widget_path (widget);
          g_ptr_array_add (walk->problems, g_strdup_printf ("ellipsized label \"%s\" (%d px wide): %s",
                                                            gtk_label_get_text (GTK_LABEL (widget)),
                                                            a.width, path));
        }
    }
  /* The allocation is the CSS margin box; the minimum size also counts
   * the widget's own margins.  What a scrollable shows is scrolled, not
   * clipped. */
  a.width += gtk_widget_get_margin_start (widget) + gtk_widget_get_margin_end (widget);
  a.height += gtk_widget_get_margin_top (widget) + gtk_widget_get_margin_bottom (widget);
  if (!GTK_IS_NATIVE (widget) && !GTK_IS_SCROLLABLE (widget))
    {
      gtk_widget_measure (widget, GTK_ORIENTATION_HORIZONTAL, -1, &min_w, &nat, NULL, NULL);
      gtk_widget_measure (widget, GTK_ORIENTATION_VERTICAL, MAX (a.width, min_w), &min_h, &nat, NULL, NULL);
      if (a.width < min_w || a.height < min_h)
        {
          g_autofree char *path = widget_path (widget);
          g_ptr_array_add (walk->problems, g_strdup_printf ("clipped: %d×%d allocated, %d×%d needed: %s",
                                                            a.width, a.height, min_w, min_h, path));
        }
    }
  for (GtkWidget *c = gtk_widget_get_first_child (widget); c != NULL; c = gtk_widget_get_next_sibling (c))
    {
      graphene_rect_t b;

      /* A tooltip that pops up under the X pointer is its own window,
       * sized when shown, not part of the page's layout. */
      if (GTK_IS_NATIVE (c) && !GTK_IS_POPOVER (c))
        continue;
      check_widget (c, walk);
      /* A child reaching past a parent that does not scroll is cut at
       * the parent's edge (a stack gives a child its minimum size even
       * when it has less room). */
      if (gtk_widget_get_mapped (c) && !GTK_IS_NATIVE (c) && clips (widget)
          && gtk_widget_compute_bounds (c, widget, &b)
          && (b.origin.x + b.size.width > gtk_widget_get_width (widget) + 1 || b.origin.x < -1
              || b.origin.y + b.size.height > gtk_widget_get_height (widget) + 1 || b.origin.y < -1))
        {
          g_autofree char *path = widget_path (c);
          g_ptr_array_add (walk->problems, g_strdup_printf ("past its parent's edge: %.0f,%.0f %.0f×%.0f in %d×%d: %s",
                                                            b.origin.x, b.origin.y, b.size.width, b.size.height,
                                                            gtk_widget_get_width (widget), gtk_widget_get_height (widget),
                                                            path));
        }
    }
}

/* A toolbar shows all its buttons: at 1280×720 the Graph page's zoom,
 * fit, table and export buttons were scrolled out of a sideways-scrolling
 * toolbar with nothing to say so.  Each child of a widget with the style
 * class "toolbar" must be mapped, have a size, and lie inside the window
 * and inside what its scrolled window (if any) shows, when any of its
 * siblings is shown. */
static void
check_toolbar (GtkWidget *toolbar,
               GtkWidget *window,
               Walk      *walk)
{
  GtkWidget *scroller = gtk_widget_get_ancestor (toolbar, GTK_TYPE_SCROLLED_WINDOW);
  GtkWidget *clip = scroller != NULL ? scroller : window;
  gboolean any = FALSE;

  for (GtkWidget *c = gtk_widget_get_first_child (toolbar); c != NULL; c = gtk_widget_get_next_sibling (c))
    any |= gtk_widget_get_mapped (c);
  if (!any)
    return;
  for (GtkWidget *c = gtk_widget_get_first_child (toolbar); c != NULL; c = gtk_widget_get_next_sibling (c))
    {
      graphene_rect_t b;
      g_autofree char *path = NULL;

      if (!gtk_widget_get_visible (c))
        continue;   /* hidden on purpose (a mode's own control) */
      if (gtk_widget_get_mapped (c) && gtk_widget_get_width (c) > 0 && gtk_widget_get_height (c) > 0
          && gtk_widget_compute_bounds (c, clip, &b)
          && b.origin.x >= -1 && b.origin.y >= -1
          && b.origin.x + b.size.width <= gtk_widget_get_width (clip) + 1
          && b.origin.y + b.size.height <= gtk_widget_get_height (clip) + 1)
        continue;
      path = widget_path (c);
      g_ptr_array_add (walk->problems, g_strdup_printf ("toolbar child not shown (%s, %d×%d%s): %s",
                                                        gtk_widget_get_mapped (c) ? "mapped" : "unmapped",
                                                        gtk_widget_get_width (c), gtk_widget_get_height (c),
                                                        gtk_widget_get_mapped (c) ? ", outside what is shown" : "",
                                                        path));
    }
}

static void
check_toolbars (GtkWidget *widget,
                GtkWidget *window,
                Walk      *walk)
{
  if (!gtk_widget_get_mapped (widget))
    return;
  if (gtk_widget_has_css_class (widget, "toolbar"))
    check_toolbar (widget, window, walk);
  for (GtkWidget *c = gtk_widget_get_first_child (widget); c != NULL; c = gtk_widget_get_next_sibling (c))
    check_toolbars (c, window, walk);
}

static gboolean
revealers_settled (GtkWidget *widget)
{
  if (GTK_IS_REVEALER (widget) &&
      gtk_revealer_get_reveal_child (GTK_REVEALER (widget)) != gtk_revealer_get_child_revealed (GTK_REVEALER (widget)))
    return FALSE;
  for (GtkWidget *c = gtk_widget_get_first_child (widget); c != NULL; c = gtk_widget_get_next_sibling (c))
    if (!revealers_settled (c))
      return FALSE;
  return TRUE;
}

static gboolean
revealers_settled_cb (gpointer window)
{
  return revealers_settled (window);
}

/* Screenshot of @window as "layout-@page-WxH-@style.png", then the walk;
 * the problems found are returned (one string each), for the caller to
 * report all before failing. */
static void
check_page (GtkWidget  *window,
            const char *page,
            GPtrArray  *problems)
{
  AdwStyleManager *style = adw_style_manager_get_default ();
  g_autofree char *name = g_strdup_printf ("layout-%s-%dx%d-%s.png", page, current_size->width, current_size->height,
                                           adw_style_manager_get_dark (style) ? "dark" : "light");
  g_autoptr(GdkTexture) shot = NULL;

  /* A revealer half-way through its slide is not what the user ends up
   * seeing (the inspector's was 17 px of its 109). */
  ws_gui_test_wait_until (revealers_settled_cb, window, 20, "revealers to finish sliding");
  shot = ws_gui_test_screenshot (window, name);
  Walk walk = { g_ptr_array_new_with_free_func (g_free), 0, 0 };

  check_widget (window, &walk);
  check_toolbars (window, window, &walk);
  g_test_message ("%s: %u widgets, %u labels, %u problems", name, walk.n_widgets, walk.n_labels, walk.problems->len);
  for (guint i = 0; i < walk.problems->len; i++)
    g_ptr_array_add (problems, g_strdup_printf ("%s: %s", name, (char *) g_ptr_array_index (walk.problems, i)));
  g_ptr_array_unref (walk.problems);
}

/* ------------------------------------------------------------------ */
/* Driving the window                                                   */

static gboolean
overview_answered (gpointer data)
{
  WsOverviewPage *page = data;
  return !ws_overview_page_get_busy (page) && ws_overview_page_get_top_cause (page) != NULL;
}

static gboolean
sized (gpointer data)
{
  GtkWidget *window = data;
  const Size *want = g_object_get_data (G_OBJECT (window), "ws-test-size");

  GdkSurface *surface = gtk_native_get_surface (GTK_NATIVE (window));

  if (surface == NULL || !gtk_widget_get_mapped (window))
    return FALSE;
  return gdk_surface_get_width (surface) == want->width && gdk_surface_get_height (surface) == want->height;
}

static void
resize (GtkWidget  *window,
        const Size *size)
{
  g_object_set_data (G_OBJECT (window), "ws-test-size", (gpointer) size);
  gtk_window_set_default_size (GTK_WINDOW (window), size->width, size->height);
  gtk_widget_set_size_request (window, size->width, size->height);
  ws_gui_test_wait_until (sized, window, 30, "the window's size");
}

static void
set_dark (gboolean dark)
{
  adw_style_manager_set_color_scheme (adw_style_manager_get_default (),
                                      dark ? ADW_COLOR_SCHEME_FORCE_DARK : ADW_COLOR_SCHEME_FORCE_LIGHT);
}

/* The slowest scenario instance selected in the timeline, and its longest
 * wait as the selected event (its "woken by" arrow shown). */
static void
select_slowest (WsWindow *window)
{
  WsDocument *document = ws_window_get_current_document (window);
  WsTrace *trace = ws_document_get_trace (document);
  WsTimelineViewport *viewport = ws_document_get_viewport (document);
  const WsScenarioInstance *slowest = NULL;
  const WsThread *t;
  guint longest = WS_NONE;

  for (guint i = 0; i < ws_trace_get_n_scenario_instances (trace); i++)
    {
      const WsScenarioInstance *si = ws_trace_get_scenario_instance (trace, i);
      if (slowest == NULL || si->t1 - si->t0 > slowest->t1 - slowest->t0)
        slowest = si;
    }
  g_assert_nonnull (slowest);
  t = ws_trace_get_thread (trace, slowest->thread);
  for (guint i = 0; i < t->n_events; i++)
    {
      const WsEvent *e = ws_trace_get_event (trace, t->events[i]);
      if (e->kind == WS_EVENT_WAIT && e->time >= slowest->t0 && e->time < slowest->t1 &&
          (longest == WS_NONE || ws_event_duration (e) > ws_event_duration (ws_trace_get_event (trace, longest))))
        longest = t->events[i];
    }
  ws_timeline_viewport_set_selection (viewport, slowest->thread, slowest->t0, slowest->t1);
  if (longest != WS_NONE)
    ws_timeline_viewport_set_selected_event (viewport, longest);
}

static void
show_analysis (WsWindow   *window,
               const char *action)
{
  WsGraphPage *graph = ws_window_get_graph_page (window);
  gboolean ready = FALSE;
  gulong id = g_signal_connect (graph, "ready", G_CALLBACK (ws_gui_test_flag_cb), &ready);

  gtk_widget_activate_action (GTK_WIDGET (window), action, NULL);
  ws_gui_test_wait_for_flag (&ready, 120, action);
  g_signal_handler_disconnect (graph, id);
  g_assert_cmpstr (ws_window_get_details_page (window), ==, "graph");
}

static gboolean
mined (gpointer data)
{
  return !ws_gui_test_mining_busy (data) && ws_gui_test_mining_status (data) != NULL;
}

static GtkWidget *
find_preferences (void)
{
  return GTK_WIDGET (ws_gui_test_find_toplevel (WS_TYPE_PREFERENCES_WINDOW));
}

static gboolean
preferences_shown (gpointer data)
{
  GtkWidget *w = find_preferences ();
  return w != NULL && gtk_widget_get_mapped (w);
}

typedef struct {
  WsWindow  *window;
  GPtrArray *problems;
} Fixture;

static WsGraphPage *
graph_of (Fixture *fx)
{
  return ws_window_get_graph_page (fx->window);
}

static void
set_inspector (Fixture  *fx,
               gboolean  shown)
{
  GtkWidget *revealer = ws_gui_test_find_child (GTK_WIDGET (graph_of (fx)), GTK_TYPE_REVEALER);

  /* The graph page's first revealer is the inspector's. */
  g_assert_nonnull (revealer);
  if (gtk_revealer_get_reveal_child (GTK_REVEALER (revealer)) != shown)
    gtk_widget_activate_action (GTK_WIDGET (graph_of (fx)), "graph.toggle-inspector", NULL);
  g_assert_true (gtk_revealer_get_reveal_child (GTK_REVEALER (revealer)) == shown);
}

/* Issue 13: at 720 px high the critical path's legend sat under the lanes
 * and the chart showed two rows and a half.  With the key on top, its
 * scrolled window shows the title, the key, the ruler and three whole
 * lanes at every size. */
static void
check_critical_path_rows (Fixture *fx)
{
  GtkWidget *view = ws_gui_test_find_child (GTK_WIDGET (graph_of (fx)), WS_TYPE_CRITICAL_PATH_VIEW);
  GtkWidget *scroller = view ? gtk_widget_get_ancestor (view, GTK_TYPE_SCROLLED_WINDOW) : NULL;
  const WsCriticalPathGeometry *g;
  double lanes;

  g_assert_nonnull (scroller);
  g = ws_critical_path_renderer_get_geometry (ws_critical_path_view_get_renderer (WS_CRITICAL_PATH_VIEW (view)));
  lanes = (gtk_widget_get_height (scroller) - g->margin - g->summary_height - g->ruler_height) / g->lane_height;
  g_test_message ("critical path at %dx%d: %d px shown, %.1f lanes", current_size->width, current_size->height,
                  gtk_widget_get_height (scroller), lanes);
  if (lanes < 3)
    g_ptr_array_add (fx->problems, g_strdup_printf ("critical path at %dx%d: only %.1f lanes shown",
                                                    current_size->width, current_size->height, lanes));
}

/* The Graph page in each of its modes, the ready tree fitted, and with the
 * inspector open under them. */
static void
check_graph_pages (Fixture *fx)
{
  GtkWidget *window = GTK_WIDGET (fx->window);

  show_analysis (fx->window, "win.show-ready-tree");
  set_inspector (fx, FALSE);
  check_page (window, "ready-tree", fx->problems);
  /* Zoomed out past where the full labels were ~7 px tall: one line of
   * fewer words, at a size that reads. */
  gtk_widget_activate_action (GTK_WIDGET (graph_of (fx)), "graph.zoom-out", NULL);
  check_page (window, "ready-tree-zoom-0.7", fx->problems);
  gtk_widget_activate_action (GTK_WIDGET (graph_of (fx)), "graph.zoom-out", NULL);
  check_page (window, "ready-tree-zoom-0.5", fx->problems);
  gtk_widget_activate_action (GTK_WIDGET (graph_of (fx)), "graph.fit", NULL);
  check_page (window, "ready-tree-fit", fx->problems);
  set_inspector (fx, TRUE);
  check_page (window, "ready-tree-inspector", fx->problems);
  set_inspector (fx, FALSE);
  show_analysis (fx->window, "win.show-critical-path");
  check_page (window, "critical-path", fx->problems);
  check_critical_path_rows (fx);
  set_inspector (fx, TRUE);
  check_page (window, "critical-path-inspector", fx->problems);
  set_inspector (fx, FALSE);
}

static gboolean
popover_shown (gpointer data)
{
  GtkWidget *popover = ws_gui_test_find_child (data, GTK_TYPE_POPOVER);
  return popover != NULL && gtk_widget_get_mapped (popover);
}

static GtkWidget *
find_icon_button (GtkWidget  *root,
                  const char *icon)
{
  if (GTK_IS_TOGGLE_BUTTON (root) && g_strcmp0 (gtk_button_get_icon_name (GTK_BUTTON (root)), icon) == 0)
    return root;
  for (GtkWidget *c = gtk_widget_get_first_child (root); c != NULL; c = gtk_widget_get_next_sibling (c))
    {
      GtkWidget *found = find_icon_button (c, icon);
      if (found != NULL)
        return found;
    }
  return NULL;
}

static gboolean
widget_mapped (gpointer widget)
{
  return gtk_widget_get_mapped (widget);
}

/* The Mining page's scope list, open: its items were cut short. */
static void
check_scope_list (Fixture *fx)
{
  GtkWidget *mining = GTK_WIDGET (ws_window_get_mining_page (fx->window));
  GtkWidget *toggle = find_icon_button (mining, "sidebar-show-symbolic");
  GtkWidget *row;
  GtkWidget *popover;

  ws_window_show_details_page (fx->window, "mining");
  /* With results, the settings are behind a toggle (and hidden again
   * after: the page is checked as it opens with results). */
  g_assert_nonnull (toggle);
  gtk_toggle_button_set_active (GTK_TOGGLE_BUTTON (toggle), TRUE);
  ws_gui_test_wait_until (widget_mapped, ws_gui_test_find_child (mining, WS_TYPE_MINING_FORM), 20, "the mining settings");
  row = ws_gui_test_find_child (mining, ADW_TYPE_COMBO_ROW);
  g_assert_nonnull (row);
  g_signal_emit_by_name (row, "activate");
  ws_gui_test_wait_until (popover_shown, row, 20, "the scope list");
  popover = ws_gui_test_find_child (row, GTK_TYPE_POPOVER);
  check_page (popover, "scope-list", fx->problems);
  gtk_popover_popdown (GTK_POPOVER (popover));
  /* The results beside the settings. */
  check_page (GTK_WIDGET (fx->window), "mining-settings", fx->problems);
  gtk_toggle_button_set_active (GTK_TOGGLE_BUTTON (toggle), FALSE);
}

/* The Threads table shows every column in the window's width: its last
 * column, the longest wait, was cut at 1280 px with the sidebar shown. */
static void
check_thread_columns (Fixture *fx)
{
  GtkWidget *table = ws_gui_test_find_child (GTK_WIDGET (fx->window), WS_TYPE_THREAD_TABLE);
  GtkWidget *scroller = table ? ws_gui_test_find_child (table, GTK_TYPE_SCROLLED_WINDOW) : NULL;
  GtkAdjustment *h;

  g_assert_nonnull (scroller);
  h = gtk_scrolled_window_get_hadjustment (GTK_SCROLLED_WINDOW (scroller));
  if (gtk_adjustment_get_upper (h) > gtk_adjustment_get_page_size (h) + 1)
    g_ptr_array_add (fx->problems, g_strdup_printf ("threads table at %dx%d: columns need %.0f px, %.0f shown",
                                                    current_size->width, current_size->height,
                                                    gtk_adjustment_get_upper (h), gtk_adjustment_get_page_size (h)));
}

static void
check_details_pages (Fixture *fx)
{
  static const char *const plain[] = { "overview", "details", "threads", "mining", "contrast", "findings" };

  for (guint i = 0; i < G_N_ELEMENTS (plain); i++)
    {
      ws_window_show_details_page (fx->window, plain[i]);
      check_page (GTK_WIDGET (fx->window), plain[i], fx->problems);
      if (g_str_equal (plain[i], "threads"))
        check_thread_columns (fx);
    }
  check_graph_pages (fx);
}

/* A second window with no trace: the Welcome page, the Record page, and
 * the Preferences window over it. */
static void
check_window_pages (const Size *size,
                    GPtrArray  *problems)
{
  WsWindow *window = ws_window_new (GTK_APPLICATION (the_app));
  GtkWidget *prefs;

  gtk_window_set_default_size (GTK_WINDOW (window), size->width, size->height);
  gtk_window_present (GTK_WINDOW (window));
  resize (GTK_WIDGET (window), size);
  check_page (GTK_WIDGET (window), "welcome", problems);
  gtk_widget_activate_action (GTK_WIDGET (window), "win.record", NULL);
  check_page (GTK_WIDGET (window), "record", problems);
  gtk_widget_activate_action (GTK_WIDGET (window), "win.preferences", NULL);
  ws_gui_test_wait_until (preferences_shown, NULL, 30, "the Preferences window");
  prefs = find_preferences ();
  check_page (prefs, "preferences", problems);
  gtk_window_destroy (GTK_WINDOW (prefs));
  gtk_window_destroy (GTK_WINDOW (window));
}

static WsPinList *
pins_of (WsWindow *window)
{
  return ws_session_file_get_findings (ws_session_get_session_file (ws_window_get_session (window)));
}

static gboolean
pinned (gpointer data)
{
  WsWindow *window = data;

  return ws_pin_list_get_n (pins_of (window)) > 0 && ws_findings_page_get_n_pending (ws_window_get_findings_page (window)) == 0;
}

static void
test_layout (void)
{
  g_autofree char *path = g_build_filename (g_getenv ("WS_TEST_DATA"), "pg-tpcb.perf.txt.gz", NULL);
  g_autoptr(GPtrArray) problems = g_ptr_array_new_with_free_func (g_free);
  Fixture fx = { ws_window_new (GTK_APPLICATION (the_app)), problems };
  WsMiningPage *mining;

  set_dark (FALSE);
  gtk_window_set_default_size (GTK_WINDOW (fx.window), sizes[0].width, sizes[0].height);
  gtk_window_present (GTK_WINDOW (fx.window));
  resize (GTK_WIDGET (fx.window), &sizes[0]);

  ws_gui_test_open_trace (fx.window, path);
  ws_gui_test_wait_until (overview_answered, ws_gui_test_find_child (GTK_WIDGET (fx.window), WS_TYPE_OVERVIEW_PAGE),
                          240, "the overview's first answer");

  /* The Mining page before and after mining; a finding pinned. */
  mining = ws_window_get_mining_page (fx.window);
  ws_window_show_details_page (fx.window, "mining");
  check_page (GTK_WIDGET (fx.window), "mining-empty", problems);
  ws_mining_page_run (mining);
  ws_gui_test_wait_until (mined, mining, 600, "mining");
  select_slowest (fx.window);
  show_analysis (fx.window, "win.show-ready-tree");
  gtk_widget_activate_action (GTK_WIDGET (fx.window), "win.pin-view", NULL);
  ws_gui_test_wait_until (pinned, fx.window, 60, "the pinned finding");

  for (guint s = 0; s < G_N_ELEMENTS (sizes); s++)
    for (int dark = 0; dark < 2; dark++)
      {
        current_size = &sizes[s];
        resize (GTK_WIDGET (fx.window), &sizes[s]);
        set_dark (dark);
        check_details_pages (&fx);
        check_scope_list (&fx);
        check_window_pages (&sizes[s], problems);
      }

  for (guint i = 0; i < problems->len; i++)
    g_printerr ("%s\n", (char *) g_ptr_array_index (problems, i));
  g_assert_cmpuint (problems->len, ==, 0);
}

int
main (int    argc,
      char **argv)
{
  the_app = ws_gui_test_init (&argc, &argv);
  g_test_add_func ("/gui-layout/pages", test_layout);
  return g_test_run ();
}
