/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

/*
 * Shared by the files the main window is split into (one job each, as
 * gnome-text-editor splits its window): ws-window.c (the object, the
 * selection bar), ws-window-actions.c, ws-window-documents.c,
 * ws-window-files.c, ws-window-digest.c, ws-window-fleet.c,
 * ws-window-pages.c and ws-window-search.c.
 */

#include "ws-contrast-page.h"
#include "ws-flame-page.h"
#include "ws-overview-page.h"
#include "ws-pivot-page.h"
#include "ws-slowest-list.h"
#include "ws-timeline-legend.h"
#include "ws-window.h"
#include "ws-window-anomaly.h"   /* ws_window_show_toast() */
#include "ws-digest.h"
#include "ws-progress-relay.h"
#include "ws-worker.h"

G_BEGIN_DECLS

struct _WsWindow
{
  AdwApplicationWindow  parent_instance;

  /* Template widgets */
  AdwToastOverlay      *toast_overlay;
  AdwWindowTitle       *window_title;
  GtkToggleButton      *sidebar_button;
  GtkToggleButton      *search_button;
  GtkWidget            *zoom_box;
  GtkSearchBar         *search_bar;
  GtkSearchEntry       *search_entry;
  GtkLabel             *search_status;
  GtkWidget            *sidebar;
  GtkListBox           *trace_list;
  GtkStack             *main_stack;
  AdwStatusPage        *loading_page;
  AdwStatusPage        *error_page;
  GtkProgressBar       *load_progress;
  GtkScrolledWindow    *timeline_scroller;
  WsTimelineView       *timeline_view;
  GtkRevealer          *selection_revealer;
  GtkLabel             *selection_label;
  WsTimelineLegend     *legend;
  GtkStack             *details_stack;
  WsDetailsPane        *details_pane;
  WsThreadTable        *thread_table;
  WsMiningPage         *mining_page;
  WsFlamePage          *flame_page;
  WsOverviewPage       *overview_page;
  WsGraphPage          *graph_page;
  WsFindingsPage       *findings_page;
  WsContrastPage       *contrast_page;
  WsPivotPage          *pivot_page;
  GtkPaned             *content_paned;
  GMenu                *recent_section;
  GtkMenuButton        *slowest_button;   /* ws-window-slowest.c */
  WsSlowestList        *slowest_list;

  /* Owned references */
  WsSession            *session;
  GListStore           *documents;      /* the session's, which the window edits */
  WsDocument           *current;
  GSignalGroup         *document_signals;
  GSignalGroup         *viewport_signals;
  GSettings            *settings;
  WsWorker             *search_worker;    /* ws-window-search.c */
  WsStackSearch        *search;
  WsWorker             *sqlite_export;    /* ws-window-sqlite.c */
  GtkWidget            *timeline_pane;    /* ws-window-digest.c: the timeline, while a digest stands in its place */
  WsWorker             *digest_reader;    /* ws-window-digest.c */
  WsWorker             *fleet_loader;     /* ws-window-fleet.c */
  WsProgressRelay      *fleet_relay;
  AdwStatusPage        *fleet_page;       /* the main stack's "fleet": progress and Cancel */
  GtkProgressBar       *fleet_progress;
};

/* ws-window.c */
void     _ws_window_update_selection         (WsWindow       *self);
void     _ws_window_update_details           (WsWindow       *self);

/* ws-window-actions.c */
gboolean _ws_window_is_ready                 (WsWindow       *self);
void     _ws_window_update_actions           (WsWindow       *self);
void     _ws_window_class_actions_init       (GtkWidgetClass *widget_class);

/* ws-window-documents.c */
void     _ws_window_documents_init           (WsWindow       *self);
void     _ws_window_show_document            (WsWindow       *self,
                                              WsDocument     *document);
void     _ws_window_close_document           (WsWindow       *self,
                                              WsDocument     *document);
void     _ws_window_document_state_changed   (WsWindow       *self);
void     _ws_window_update_title             (WsWindow       *self);
void     _ws_window_update_loading_page      (WsWindow       *self);

/* ws-window-files.c */
void     _ws_window_class_files_init         (GtkWidgetClass *widget_class);
void     _ws_window_files_init               (WsWindow       *self);
void     _ws_window_update_recent_menu       (WsWindow       *self);

/* ws-window-digest.c */
void     ws_window_open_digest               (WsWindow       *self,
                                              GFile          *file);
void     _ws_window_digest_leave             (WsWindow       *self);
void     _ws_window_show_digest              (WsWindow       *self,
                                              WsDigest       *digest,
                                              const char     *title,
                                              const char     *body,
                                              gboolean        contrast,
                                              const GPtrArray *failed);

/* ws-window-fleet.c */
void     _ws_window_class_fleet_init         (GtkWidgetClass *widget_class);
void     _ws_window_fleet_init               (WsWindow       *self);
void     _ws_window_fleet_dispose            (WsWindow       *self);
/* ws-window-pages.c */
void     _ws_window_hold_split               (WsWindow       *self);
void     _ws_window_arrange_split_again      (WsWindow       *self);
/* ws-window-pages.c */
void     _ws_window_pages_init               (WsWindow       *self);

/* ws-window-slowest.c */
void     _ws_window_class_slowest_init       (GtkWidgetClass *widget_class);
void     _ws_window_slowest_init             (WsWindow       *self);
void     _ws_window_show_wait                (WsWindow       *self,
                                              guint           event);

/* ws-window-sqlite.c */
void     _ws_window_class_sqlite_init        (GtkWidgetClass *widget_class);
void     _ws_window_sqlite_dispose           (WsWindow       *self);

/* ws-window-search.c */
void     _ws_window_class_search_init        (GtkWidgetClass *widget_class);
void     _ws_window_search_init              (WsWindow       *self);
void     _ws_window_drop_search              (WsWindow       *self);

/* ws-window-pages.c: the lower pane's WsPages */
void       _ws_window_bind_pages             (WsWindow       *self);
GPtrArray *_ws_window_list_pages             (WsWindow       *self);
WsPage    *_ws_window_find_pin_page          (WsWindow       *self,
                                              const char     *kind);

G_END_DECLS
