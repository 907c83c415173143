/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * A pin of the Flame Graph page (docs/session-format.md): the graph shown,
 * as what folds it again — its trace (and the differential's base as a
 * second trace), the scope's thread and window, and the page's mode,
 * scope, zoomed frame, search and orientation (ws_pin_set_flame()).
 * Reopening it selects the thread and window in the timeline and sets the
 * page's choices; the page zooms once the graph is built.
 */
#include "config.h"

#include <glib/gi18n.h>

#include "ws-flame-pin.h"
#include "ws-time-format.h"

/**
 * ws_flame_pin_capture:
 * @files: (element-type GFile): filled with the pin's traces, in order
 *
 * Returns: (transfer full) (nullable): the pin, %NULL when no graph is shown
 */
WsPin *
ws_flame_pin_capture (WsFlamePage *page,
                      GPtrArray   *files)
{
  WsPinFlame flame;
  WsFlameSettings settings;
  WsDocument *base = NULL;
  guint thread = WS_NONE;
  WsDocument *document = ws_flame_page_get_shown (page, &flame, &settings, &thread, &base);
  WsTrace *trace;
  g_autoptr(WsPin) pin = NULL;
  g_autofree char *title = NULL;

  if (document == NULL)
    return NULL;
  trace = ws_document_get_trace (document);
  pin = ws_pin_new (WS_PIN_KIND_FLAME);
  if (settings.has_window)
    ws_pin_set_window (pin, settings.window_start, settings.window_end);
  if (flame.scope == WS_FLAME_SCOPE_THREAD && thread != WS_NONE)
    ws_pin_set_tid (pin, ws_trace_get_thread (trace, thread)->tid);
  ws_pin_set_flame (pin, &flame);
  g_ptr_array_add (files, g_object_ref (ws_document_get_file (document)));
  if (base != NULL)
    g_ptr_array_add (files, g_object_ref (ws_document_get_file (base)));
  if (flame.zoom != NULL)
    /* TRANSLATORS: a flame graph pin's title: the mode, then the zoomed frame */
    title = g_strdup_printf (_("%s flame graph at %s"), _(ws_flame_mode_get_info (flame.mode)->label),
                             flame.zoom[g_strv_length (flame.zoom) - 1]);
  else
    /* TRANSLATORS: a flame graph pin's title: the mode, then the trace */
    title = g_strdup_printf (_("%s flame graph of %s"), _(ws_flame_mode_get_info (flame.mode)->label),
                             ws_trace_get_name (trace));
  ws_pin_set_title (pin, title);
  ws_pin_flame_clear (&flame);
  return g_steal_pointer (&pin);
}

/**
 * ws_flame_pin_apply:
 * @document: the pin's first trace, loaded and current
 * @base: (nullable): its second, when open and loaded
 */
void
ws_flame_pin_apply (WsFlamePage *page,
                    WsPin       *pin,
                    WsDocument  *document,
                    WsDocument  *base)
{
  WsPinFlame flame;
  WsTrace *trace = ws_document_get_trace (document);
  WsTimelineViewport *viewport = ws_document_get_viewport (document);
  WsTime t0, t1;

  /* The session reader checked the pin; one changed since cannot be read. */
  if (!ws_pin_get_flame (pin, &flame, NULL))
    return;
  if (flame.scope != WS_FLAME_SCOPE_TRACE && ws_pin_get_window (pin, &t0, &t1))
    {
      guint thread = ws_pin_get_tid (pin) != WS_PIN_NO_TID ? ws_trace_find_thread (trace, ws_pin_get_tid (pin)) : WS_NONE;

      /* A window scope folds every thread: any thread carries the window. */
      if (thread == WS_NONE && ws_trace_get_n_threads (trace) > 0)
        thread = 0;
      ws_timeline_viewport_set_visible (viewport, t0, MAX (t1, t0 + WS_TIMELINE_MIN_SPAN));
      if (thread != WS_NONE)
        ws_timeline_viewport_set_selection (viewport, thread, t0, t1);
    }
  ws_flame_page_show_pinned (page, &flame, ws_pin_get_n_traces (pin) > 1 ? base : NULL);
  ws_pin_flame_clear (&flame);
}

static const char * const *
pin_kinds (WsPage *page)
{
  static const char * const kinds[] = { WS_PIN_KIND_FLAME, NULL };

  return kinds;
}

static WsPin *
capture_pin (WsPage     *page,
             const char *what,
             GPtrArray  *files,
             char      **message)
{
  WsPin *pin = ws_flame_pin_capture (WS_FLAME_PAGE (page), files);

  if (pin == NULL)
    *message = g_strdup (_("Wait for the flame graph, then pin it"));
  return pin;
}

/* The session's document of @file, loaded, or NULL (the session's list
 * keeps it alive). */
static WsDocument *
find_loaded_document (WsSession *session,
                      GFile     *file)
{
  GListModel *documents = ws_session_get_documents (session);

  for (guint i = 0; file != NULL && i < g_list_model_get_n_items (documents); i++)
    {
      g_autoptr(WsDocument) document = g_list_model_get_item (documents, i);

      if (ws_document_get_state (document) == WS_DOCUMENT_READY && g_file_equal (ws_document_get_file (document), file))
        return document;
    }
  return NULL;
}

/* Onto the trace shown; the compared trace (the pin's second) is
 * restored when it is open and loaded. */
static void
apply_pin (WsPage  *page,
           WsPin   *pin,
           GFile  **traces,
           guint    n_traces)
{
  WsSession *session = ws_page_get_session (page);
  WsDocument *document = session ? ws_session_get_current_document (session) : NULL;

  if (document == NULL || ws_document_get_trace (document) == NULL)
    return;
  ws_flame_pin_apply (WS_FLAME_PAGE (page), pin, document,
                      n_traces > 1 ? find_loaded_document (session, traces[1]) : NULL);
}

void
ws_flame_pin_class_init (WsPageClass *page_class)
{
  page_class->pin_kinds = pin_kinds;
  page_class->capture_pin = capture_pin;
  page_class->apply_pin = apply_pin;
}
