/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

/*
 * Shared by the graph page's files: ws-graph-page.c (building, search,
 * selection, the inspector) and ws-graph-page-export.c (its exports).
 */

#include <adwaita.h>

#include "ws-graph-columns.h"
#include "ws-graph-page.h"
#include "ws-graph-search.h"
#include "ws-node-details.h"
#include "ws-worker.h"

G_BEGIN_DECLS

struct _WsGraphPage
{
  WsPage             parent_instance;

  /* Template widgets */
  AdwToastOverlay   *toast_overlay;
  GtkWidget       *toolbar;
  GtkDropDown       *mode_dropdown;
  GtkLabel          *metric_label;
  GtkDropDown       *metric_dropdown;
  GtkCheckButton    *lock_only_check;
  GtkSpinButton     *depth_spin;
  GtkSearchEntry    *search_entry;
  GtkLabel          *match_label;
  GtkLabel          *zoom_label;
  GtkStack          *state_stack;
  GtkStack          *view_stack;
  GtkToggleButton   *table_toggle;
  AdwStatusPage     *error_page;
  GtkSpinner        *spinner;
  WsGraphView       *graph_view;
  GtkColumnView     *table;
  WsNodeDetails     *details;
  GtkLabel          *summary_label;
  WsCriticalPathView *cp_view;
  GtkColumnView     *segment_table;
  GtkToggleButton   *inspector_toggle;
  AdwButtonContent  *inspector_toggle_content;
  GtkRevealer       *inspector_revealer;
  WsInspectorPanel  *inspector_panel;

  /* Owned references (the session is WsPage's: ws_page_get_session()) */
  WsGraphShown       shown;          /* trace, scene, path (owned) and the matches */
  GListStore        *rows;
  GtkSingleSelection *selection;
  GListStore        *segment_rows;
  GtkSingleSelection *segment_selection;
  WsGraphSearch     *search;
  WsWorker          *worker;
  WsGraphFlags      *flags;          /* anomaly marks and flags on nodes */

  /* The request */
  WsSymptom          symptom;
  guint              root_event;      /* a wait's own ready tree, or WS_NONE */
  gboolean           have_symptom;
  WsGraphMode        mode;
  gboolean           in_request_update;
};

void _ws_graph_page_toast             (WsGraphPage    *self,
                                       const char     *message);
void _ws_graph_page_class_export_init (GtkWidgetClass *widget_class);

G_END_DECLS
