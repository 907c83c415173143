/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Pinning a view: read back the inputs of what is on screen (the
 * timeline's selection or visible span; the graph page's symptom, root
 * wait and chain metric) so the pin redraws the same figure later.
 */
#include "config.h"

#include <glib/gi18n.h>

#include "ws-pin-capture.h"
#include "ws-pin-kind.h"

static char *
default_title (const char *kind,
               WsTrace    *trace,
               gint32      tid)
{
  const WsPinKindInfo *info = ws_pin_kind_lookup (kind);
  guint thread = tid != WS_PIN_NO_TID ? ws_trace_find_thread (trace, tid) : WS_NONE;

  if (thread == WS_NONE)
    return g_strdup (_(info->label));
  return g_strdup_printf (_("%s of %s (%d)"), _(info->label), ws_trace_get_thread (trace, thread)->name, tid);
}

WsPin *
ws_pin_capture_timeline (WsDocument *document)
{
  WsTimelineViewport *viewport;
  WsTrace *trace;
  WsPin *pin;
  guint thread;
  WsTime t0, t1;

  g_return_val_if_fail (WS_IS_DOCUMENT (document), NULL);

  trace = ws_document_get_trace (document);
  viewport = ws_document_get_viewport (document);
  if (trace == NULL || viewport == NULL)
    return NULL;
  pin = ws_pin_new (WS_PIN_KIND_TIMELINE);
  /* The selection is what the user pointed at; else what is on screen. */
  if (ws_timeline_viewport_get_selection (viewport, &thread, &t0, &t1))
    {
      ws_pin_set_tid (pin, ws_trace_get_thread (trace, thread)->tid);
      ws_pin_set_window (pin, t0, t1);
    }
  else
    ws_pin_set_window (pin, ws_timeline_viewport_get_begin (viewport), ws_timeline_viewport_get_end (viewport));
  {
    g_autofree char *title = default_title (WS_PIN_KIND_TIMELINE, trace, ws_pin_get_tid (pin));
    ws_pin_set_title (pin, title);
  }
  return pin;
}

static void
set_symptom (WsPin           *pin,
             WsTrace         *trace,
             const WsSymptom *symptom)
{
  if (symptom->thread != WS_NONE)
    ws_pin_set_tid (pin, ws_trace_get_thread (trace, symptom->thread)->tid);
  ws_pin_set_window (pin, symptom->t0, MAX (symptom->t0, symptom->t1));
}

static WsPin *
capture_ready_tree (WsGraphScene *scene)
{
  WsReadyTree *tree = ws_graph_scene_get_ready_tree (scene);
  WsTrace *trace = ws_ready_tree_get_trace (tree);
  const WsReadyNode *root = ws_ready_tree_get_node (tree, 0);
  WsPin *pin = ws_pin_new (WS_PIN_KIND_READY_TREE);

  ws_pin_set_tid (pin, ws_trace_get_thread (trace, root->thread)->tid);
  ws_pin_set_window (pin, root->time, root->time + root->duration);
  ws_pin_set_event (pin, root->event);
  ws_pin_set_setting_string (pin, "chain_metric", ws_chain_metric_to_string (ws_graph_scene_get_metric (scene)));
  return pin;
}

WsPin *
ws_pin_capture_graph (WsGraphPage *page)
{
  const WsGraphShown *shown = ws_graph_page_get_shown (page);
  WsGraphScene *scene = shown->scene;
  WsCriticalPath *path = shown->path;
  WsTrace *trace = shown->trace;
  int mode;
  WsPin *pin = NULL;

  if (trace == NULL)
    return NULL;
  /* The mode chosen, not the path: a path stays shown while another mode builds. */
  g_object_get (page, "mode", &mode, NULL);
  if (mode == WS_GRAPH_MODE_CRITICAL_PATH && path != NULL)
    {
      pin = ws_pin_new (WS_PIN_KIND_CRITICAL_PATH);
      set_symptom (pin, trace, ws_critical_path_get_symptom (path));
    }
  else if (scene != NULL && ws_graph_scene_get_kind (scene) == WS_GRAPH_SCENE_WAIT_GRAPH)
    {
      pin = ws_pin_new (WS_PIN_KIND_WAIT_GRAPH);
      set_symptom (pin, trace, ws_wait_graph_get_symptom (ws_graph_scene_get_wait_graph (scene)));
    }
  else if (scene != NULL && ws_graph_scene_get_kind (scene) == WS_GRAPH_SCENE_READY_TREE)
    pin = capture_ready_tree (scene);
  if (pin != NULL)
    {
      g_autofree char *title = default_title (ws_pin_get_kind (pin), trace, ws_pin_get_tid (pin));
      ws_pin_set_title (pin, title);
    }
  return pin;
}

gboolean
ws_pin_select_in_timeline (WsPin      *pin,
                           WsDocument *document)
{
  WsTrace *trace = document ? ws_document_get_trace (document) : NULL;
  WsTimelineViewport *viewport;
  guint thread;
  WsTime t0, t1;

  if (trace == NULL || !ws_pin_get_window (pin, &t0, &t1))
    return FALSE;
  viewport = ws_document_get_viewport (document);
  thread = ws_pin_get_tid (pin) != WS_PIN_NO_TID ? ws_trace_find_thread (trace, ws_pin_get_tid (pin)) : WS_NONE;
  ws_timeline_viewport_set_visible (viewport, t0, MAX (t1, t0 + WS_TIMELINE_MIN_SPAN));
  if (thread == WS_NONE)
    return FALSE;
  ws_timeline_viewport_set_selection (viewport, thread, t0, t1);
  return TRUE;
}

static const char * const *
graph_pin_kinds (WsPage *page)
{
  static const char * const kinds[] = {
    WS_PIN_KIND_WAIT_GRAPH, WS_PIN_KIND_READY_TREE, WS_PIN_KIND_CRITICAL_PATH, NULL
  };

  return kinds;
}

/* Nothing to say when there is no graph: the window pins the timeline. */
static WsPin *
graph_capture_pin (WsPage     *page,
                   const char *what,
                   GPtrArray  *files,
                   char      **message)
{
  WsSession *session = ws_page_get_session (page);
  WsDocument *document = session ? ws_session_get_current_document (session) : NULL;
  WsPin *pin;

  if (document == NULL || ws_document_get_state (document) != WS_DOCUMENT_READY)
    return NULL;
  if ((pin = ws_pin_capture_graph (WS_GRAPH_PAGE (page))) != NULL)
    g_ptr_array_add (files, g_object_ref (ws_document_get_file (document)));
  return pin;
}

/* The pin's thread and window selected in the timeline; the graph is
 * asked for through the window's own actions, which use that selection. */
static void
graph_apply_pin (WsPage  *page,
                 WsPin   *pin,
                 GFile  **traces,
                 guint    n_traces)
{
  WsSession *session = ws_page_get_session (page);
  const char *kind = ws_pin_get_kind (pin);

  if (session == NULL || !ws_pin_select_in_timeline (pin, ws_session_get_current_document (session)))
    return;
  if (g_str_equal (kind, WS_PIN_KIND_WAIT_GRAPH))
    gtk_widget_activate_action (GTK_WIDGET (page), "win.show-wait-graph", NULL);
  else if (g_str_equal (kind, WS_PIN_KIND_READY_TREE))
    gtk_widget_activate_action (GTK_WIDGET (page), "win.show-ready-tree", NULL);
  else if (g_str_equal (kind, WS_PIN_KIND_CRITICAL_PATH))
    gtk_widget_activate_action (GTK_WIDGET (page), "win.show-critical-path", NULL);
}

void
ws_graph_pin_class_init (WsPageClass *page_class)
{
  page_class->pin_kinds = graph_pin_kinds;
  page_class->capture_pin = graph_capture_pin;
  page_class->apply_pin = graph_apply_pin;
}
