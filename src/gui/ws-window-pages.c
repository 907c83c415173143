/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * How the window wires its lower pane's pages together: the thread table,
 * Overview, graph, Contrast and Mining pages ask for each other and for
 * the timeline through signals connected here, and pages that want
 * height get most of the pane.
 */
#include "config.h"

#include <glib/gi18n.h>

#include "ws-window-private.h"

/* The Overview's cluster row: the Mining page. */
static void
overview_show_mining_cb (WsWindow *self)
{
  ws_window_show_details_page (self, "mining");
  /* The row names the top cluster of the default scope, by cause: mine it. */
  ws_mining_form_set_by_cause (ws_mining_page_get_form (self->mining_page), TRUE);
  ws_mining_page_run_scope (self->mining_page, ws_mining_scope_default ());
}

/* The Overview's contrast row: the Contrast page, run on the scenario and
 * component the row was computed with, lists that pattern first. */
static void
overview_show_contrast_cb (WsWindow   *self,
                           const char *scenario,
                           const char *component)
{
  ws_window_show_details_page (self, "contrast");
  ws_contrast_page_set_scenario (self->contrast_page, scenario);
  ws_contrast_page_set_component (self->contrast_page, component);
  ws_contrast_page_run (self->contrast_page);
}

/* The split between the timeline and the pages under it.  The pages are
 * where the answers are (Overview, graphs, Mining, Contrast): they get
 * LOWER_SHARE % of the height once, when the pane is first laid out, and
 * keep that share as the window is resized (both sides resize).  After
 * that the divider moves only when the user drags it: moving it when a tab
 * was chosen or an analysis ran moved the tabs and the selection bar
 * under the pointer, and undid where the user had put it. */
#define LOWER_SHARE 68

static void
arrange_split (WsWindow *self)
{
  GtkPaned *paned = self->content_paned;
  int height = gtk_widget_get_height (GTK_WIDGET (paned));

  if (height <= 0 || g_object_get_data (G_OBJECT (self), "ws-pane-arranged") != NULL)
    return;
  g_object_set_data (G_OBJECT (self), "ws-pane-arranged", GINT_TO_POINTER (1));
  gtk_paned_set_position (paned, height * (100 - LOWER_SHARE) / 100);
}

static gboolean
arrange_split_tick (GtkWidget     *widget,
                    GdkFrameClock *clock,
                    gpointer       data)
{
  WsWindow *self = data;

  arrange_split (self);
  return g_object_get_data (G_OBJECT (self), "ws-pane-arranged") != NULL ? G_SOURCE_REMOVE : G_SOURCE_CONTINUE;
}

/* The graph page (ws-graph-page.c) in the lower pane, given most of the
 * height so that graph and timeline show together. */
static void
show_analysis_cb (WsWindow *self,
                  int       kind,
                  WsTrace  *trace,
                  guint     thread,
                  gint64    t0,
                  gint64    t1,
                  gpointer  user_data)
{
  WsSymptom symptom = { thread, t0, t1 };

  ws_graph_page_show_symptom (self->graph_page, trace, &symptom,
                              kind == WS_ANALYSIS_WAIT_GRAPH ? WS_GRAPH_MODE_WAIT_GRAPH
                              : kind == WS_ANALYSIS_CRITICAL_PATH ? WS_GRAPH_MODE_CRITICAL_PATH
                              : WS_GRAPH_MODE_READY_TREE);
  ws_window_show_details_page (self, "graph");
}

static void
graph_show_in_timeline_cb (WsWindow    *self,
                           guint        thread,
                           guint        event,
                           gint64       t0,
                           gint64       t1,
                           WsGraphPage *page)
{
  if (!_ws_window_is_ready (self) || ws_document_get_trace (self->current) != ws_graph_page_get_trace (page))
    {
      ws_window_show_toast (self, _("The graph belongs to a trace that is not shown"));
      return;
    }
  if (event != WS_NONE)
    {
      ws_timeline_viewport_set_selected_event (ws_document_get_viewport (self->current), event);
      ws_timeline_view_reveal_event (self->timeline_view, event);
    }
  else
    ws_timeline_view_reveal_thread (self->timeline_view, thread);
  gtk_widget_grab_focus (GTK_WIDGET (self->timeline_view));
}

/* Pivot (ws-pivot-page.c): a row's earliest span, selected in the
 * timeline if the row is of the trace shown. */
static void
pivot_show_in_timeline_cb (WsWindow *self,
                           WsTrace  *trace,
                           guint     thread,
                           guint     event)
{
  if (!_ws_window_is_ready (self) || ws_document_get_trace (self->current) != trace)
    {
      ws_window_show_toast (self, _("The table belongs to a trace that is not shown"));
      return;
    }
  ws_timeline_viewport_set_selected_event (ws_document_get_viewport (self->current), event);
  ws_timeline_view_reveal_event (self->timeline_view, event);
  gtk_widget_grab_focus (GTK_WIDGET (self->timeline_view));
}

/* Contrast (ws-contrast-page.c): the ready tree of a slow instance. */
static void
contrast_ready_tree_cb (WsWindow *self,
                        WsTrace  *trace,
                        guint     thread,
                        gint64    t0,
                        gint64    t1)
{
  g_signal_emit_by_name (self, "analysis-requested", WS_ANALYSIS_READY_TREE, trace, thread, t0, t1);
}

static void mining_show_events_cb (WsWindow      *self,
                                   WsDocument    *document,
                                   WsStackSearch *search,
                                   WsMiningPage  *page);

/* An inspector finding's waits: highlighted in the timeline as the
 * Mining page's events are. */
static void
graph_show_events_cb (WsWindow      *self,
                      WsStackSearch *search,
                      WsGraphPage   *page)
{
  GArray *threads = ws_graph_page_get_bridging_threads (page);

  if (_ws_window_is_ready (self) && ws_document_get_trace (self->current) == ws_stack_search_get_trace (search))
    {
      mining_show_events_cb (self, self->current, search, NULL);
      /* Over-connections: the bridging threads' rows too. */
      ws_timeline_viewport_set_highlighted_threads (ws_document_get_viewport (self->current),
                                                    threads ? (const guint32 *) threads->data : NULL,
                                                    threads ? threads->len : 0);
    }
}

/* Mining (ws-mining-page.c): its events of a pattern become the window's
 * search, so the timeline highlights them and Next / Previous step
 * through them, and the graph page's search. */
static void
mining_show_events_cb (WsWindow      *self,
                       WsDocument    *document,
                       WsStackSearch *search,
                       WsMiningPage  *page)
{
  guint position, event;

  if (document != self->current && g_list_store_find (self->documents, document, &position))
    {
      /* Translators: toast when Show Events brings another trace up */
      g_autofree char *text = g_strdup_printf (_("Switched to %s to show its events"),
                                               ws_document_get_title (document));

      gtk_list_box_select_row (self->trace_list, gtk_list_box_get_row_at_index (self->trace_list, position));
      ws_window_show_toast (self, text);
    }
  /* The graph page highlights them too if it shows a graph of that trace. */
  ws_graph_page_set_search (self->graph_page, search);
  if (!_ws_window_is_ready (self) || ws_document_get_trace (self->current) != ws_stack_search_get_trace (search))
    return;

  ws_timeline_viewport_set_highlighted_threads (ws_document_get_viewport (self->current), NULL, 0);
  _ws_window_drop_search (self);
  g_set_object (&self->search, search);
  ws_timeline_view_set_search (self->timeline_view, search);
  event = ws_stack_search_next (search, WS_NONE, TRUE);
  if (event != WS_NONE)
    {
      ws_timeline_viewport_set_selected_event (ws_document_get_viewport (self->current), event);
      ws_timeline_view_reveal_event (self->timeline_view, event);
    }
  {
    /* Translators: search status after "Show Events" of a mined pattern */
    guint n = ws_stack_search_get_n_matches (search);
    g_autofree char *text = g_strdup_printf (ngettext ("%s: %u event", "%s: %u events", n),
                                             ws_stack_search_get_pattern (search), n);
    gtk_label_set_text (self->search_status, text);
  }
  _ws_window_update_actions (self);
}

/* The split is to be arranged again at the next frame (the timeline is
 * back after a digest stood in its place, with its few lines). */
void
_ws_window_arrange_split_again (WsWindow *self)
{
  g_object_set_data (G_OBJECT (self), "ws-pane-arranged", NULL);
  gtk_widget_add_tick_callback (GTK_WIDGET (self->content_paned), arrange_split_tick, self, NULL);
}

/* No arranging while a digest's few lines stand for the timeline: they
 * keep the height they need, the pages the rest. */
void
_ws_window_hold_split (WsWindow *self)
{
  g_object_set_data (G_OBJECT (self), "ws-pane-arranged", GINT_TO_POINTER (1));
}

/* A page's tab is titled by the page. */
static void
title_page (WsWindow *self,
            WsPage   *page)
{
  GtkStackPage *stack_page = gtk_stack_get_page (self->details_stack, GTK_WIDGET (page));

  if (stack_page != NULL && ws_page_get_title (page) != NULL)
    gtk_stack_page_set_title (stack_page, ws_page_get_title (page));
}

void
_ws_window_pages_init (WsWindow *self)
{
  g_signal_connect_swapped (self->contrast_page, "open-ready-tree", G_CALLBACK (contrast_ready_tree_cb), self);
  g_signal_connect_swapped (self->mining_page, "show-events", G_CALLBACK (mining_show_events_cb), self);
  gtk_widget_add_tick_callback (GTK_WIDGET (self->content_paned), arrange_split_tick, self, NULL);
  g_signal_connect (self, "analysis-requested", G_CALLBACK (show_analysis_cb), NULL);
  g_signal_connect_swapped (self->overview_page, "show-analysis", G_CALLBACK (show_analysis_cb), self);
  /* The Overview's cluster is mined with the Mining page's settings. */
  ws_overview_page_set_mining_page (self->overview_page, self->mining_page);
  g_signal_connect_swapped (self->overview_page, "show-mining", G_CALLBACK (overview_show_mining_cb), self);
  g_signal_connect_swapped (self->overview_page, "show-contrast", G_CALLBACK (overview_show_contrast_cb), self);
  g_signal_connect_swapped (self->graph_page, "show-in-timeline", G_CALLBACK (graph_show_in_timeline_cb), self);
  g_signal_connect_swapped (self->graph_page, "show-events", G_CALLBACK (graph_show_events_cb), self);
  g_signal_connect_swapped (self->pivot_page, "show-in-timeline", G_CALLBACK (pivot_show_in_timeline_cb), self);
  {
    g_autoptr(GPtrArray) pages = _ws_window_list_pages (self);

    for (guint i = 0; i < pages->len; i++)
      title_page (self, pages->pdata[i]);
  }
}

/**
 * ws_window_show_details_page:
 * @name: "details" or "threads"
 */
void
ws_window_show_details_page (WsWindow   *self,
                             const char *name)
{
  g_return_if_fail (WS_IS_WINDOW (self));
  gtk_stack_set_visible_child_name (self->details_stack, name);
}

/**
 * ws_window_get_mining_page:
 * Returns: (transfer none): the Mining page of the lower pane
 */
WsMiningPage *
ws_window_get_mining_page (WsWindow *self)
{
  g_return_val_if_fail (WS_IS_WINDOW (self), NULL);
  return self->mining_page;
}

/* Returns: (transfer none): the graph page */
WsGraphPage *
ws_window_get_graph_page (WsWindow *self)
{
  g_return_val_if_fail (WS_IS_WINDOW (self), NULL);
  return self->graph_page;
}

/* Returns: (transfer none): the Findings page */
WsFindingsPage *
ws_window_get_findings_page (WsWindow *self)
{
  g_return_val_if_fail (WS_IS_WINDOW (self), NULL);
  return self->findings_page;
}

/* Returns: (transfer none): the name of the page the details stack shows */
const char *
ws_window_get_details_page (WsWindow *self)
{
  g_return_val_if_fail (WS_IS_WINDOW (self), NULL);
  return gtk_stack_get_visible_child_name (self->details_stack);
}

/* Every WsPage of the lower pane, in tab order (the stack holds them). */
GPtrArray *
_ws_window_list_pages (WsWindow *self)
{
  GPtrArray *pages = g_ptr_array_new ();

  for (GtkWidget *child = gtk_widget_get_first_child (GTK_WIDGET (self->details_stack)); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    if (WS_IS_PAGE (child))
      g_ptr_array_add (pages, child);
  return pages;
}

/* Hands the template's pages the window's session, the one thing a page
 * is given, once the session has the application's settings. */
void
_ws_window_bind_pages (WsWindow *self)
{
  g_autoptr(GPtrArray) pages = _ws_window_list_pages (self);

  for (guint i = 0; i < pages->len; i++)
    ws_page_set_session (pages->pdata[i], self->session);
}

/* The page of the lower pane that owns pins of @kind, or NULL (the
 * timeline's kinds are the window's own). */
WsPage *
_ws_window_find_pin_page (WsWindow   *self,
                          const char *kind)
{
  g_autoptr(GPtrArray) pages = _ws_window_list_pages (self);

  for (guint i = 0; i < pages->len; i++)
    if (ws_page_owns_pin_kind (pages->pdata[i], kind))
      return pages->pdata[i];
  return NULL;
}

/**
 * ws_window_add_page:
 * @page: (transfer none): a page the window does not hold yet
 * @name: its name for ws_window_show_details_page() and saved sessions
 *
 * Adds @page as the last tab of the lower pane, titled by the page and
 * bound to the window's session; the pins of the kinds it owns are
 * captured and shown by it.
 */
void
ws_window_add_page (WsWindow   *self,
                    WsPage     *page,
                    const char *name)
{
  g_return_if_fail (WS_IS_WINDOW (self));
  g_return_if_fail (WS_IS_PAGE (page));
  g_return_if_fail (gtk_widget_get_parent (GTK_WIDGET (page)) == NULL);

  gtk_stack_add_named (self->details_stack, GTK_WIDGET (page), name);
  title_page (self, page);
  ws_page_set_session (page, self->session);
}
