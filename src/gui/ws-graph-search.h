/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gtk/gtk.h>

#include "ws-critical-path-renderer.h"
#include "ws-graph-scene.h"
#include "ws-stack-search.h"

G_BEGIN_DECLS

/*
 * WsGraphSearch: the graph page's search bar controller.  It owns no
 * widget: it drives a search entry and its "n of m" label over the scene
 * or critical path shown (a regular expression over the nodes' stacks, or
 * a search given by events such as an inspector finding), keeps the
 * matches in reading order and steps through them (Tab / Shift+Tab,
 * Enter, F3 / Shift+F3).  ::changed says the matches changed;
 * ::match-activated gives the node (or segment) to select and reveal.
 */
#define WS_TYPE_GRAPH_SEARCH (ws_graph_search_get_type ())
G_DECLARE_FINAL_TYPE (WsGraphSearch, ws_graph_search, WS, GRAPH_SEARCH, GObject)

WsGraphSearch *ws_graph_search_new            (GtkSearchEntry *entry,
                                               GtkLabel       *match_label);
void           ws_graph_search_set_target     (WsGraphSearch  *self,
                                               WsTrace        *trace,
                                               WsGraphScene   *scene,
                                               WsCriticalPath *path);
void           ws_graph_search_refresh        (WsGraphSearch  *self);
void           ws_graph_search_set_text       (WsGraphSearch  *self,
                                               const char     *text);
void           ws_graph_search_set_search     (WsGraphSearch  *self,
                                               WsStackSearch  *search);
void           ws_graph_search_clear          (WsGraphSearch  *self);
void           ws_graph_search_next           (WsGraphSearch  *self,
                                               gboolean        forward);
WsStackSearch *ws_graph_search_get_search     (WsGraphSearch  *self);
GArray        *ws_graph_search_get_matches    (WsGraphSearch  *self);
guint          ws_graph_search_get_n_matches  (WsGraphSearch  *self);
gboolean       ws_graph_search_is_match       (WsGraphSearch  *self,
                                               guint           item);
const char    *ws_graph_search_get_status     (WsGraphSearch  *self);

G_END_DECLS
