/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

/*
 * Shared by the Mining page's files: ws-mining-page.c (the run, its
 * results, the selection) and ws-mining-page-actions.c (what the user does
 * with the selection).
 */

#include <adwaita.h>

#include "ws-cluster-alignment.h"
#include "ws-mining-item.h"
#include "ws-mining-page.h"
#include "ws-progress-relay.h"
#include "ws-run-class-chips.h"
#include "ws-signature-panel.h"
#include "ws-worker.h"

G_BEGIN_DECLS

/* ------------------------------------------------------------------ */
/* A run's result                                                       */

/* The run shown: the core's result, with the documents mined. */
typedef WsMiningShown Result;
#define result_ref ws_mining_shown_ref
#define result_unref ws_mining_shown_unref

struct _WsMiningPage
{
  WsPage               parent_instance;

  /* Template widgets */
  GtkPaned            *outer_paned;
  WsMiningForm        *form;
  GtkToggleButton     *settings_button;
  GtkStack            *results_stack;
  AdwStatusPage       *running_page;
  AdwStatusPage       *error_page;
  GtkProgressBar      *progress_bar;
  GtkPaned            *inner_paned;
  GtkLabel            *summary_label;
  GtkDropDown         *rank_dropdown;
  GtkLabel            *rank_label;
  GtkWidget           *fleet_box;        /* over two or more traces: the ranking and the classes */
  GtkToggleButton     *rank_cost_button;
  GtkToggleButton     *rank_slow_button;
  GtkLabel            *fleet_note_label;
  GtkMenuButton       *classes_button;
  WsRunClassChips     *class_chips;
  GtkColumnView       *cluster_view;
  GtkLabel            *detail_label;
  GtkStack            *detail_stack;
  WsAlignmentView     *alignment_view;
  WsSignaturePanel    *signature_panel;

  /* Owned references (the session — open traces, settings, history
   * store — is WsPage's: ws_page_get_session()) */
  WsWorker            *worker;           /* the mining run */
  WsDigest            *digest;           /* a fleet opened as a digest: mined instead of the traces */
  WsWorker            *events_worker;
  Result              *result;
  GListStore          *roots;
  GtkSingleSelection  *selection;
  WsClusterAlignment  *alignment;
  char                *status;

  /* The run in progress */
  gboolean             busy;
  gboolean             syncing_rank;     /* show_fleet() sets the toggles: no rerun */
  gboolean             rank_by_cost;     /* the user chose "Cost" over a fleet with classes */
  WsProgressRelay     *progress_relay;


  /* Clusters given a signature (the signatures are the panel's) */
  GHashTable          *signed_patterns;  /* costliest pattern (+1) of clusters given a signature */
};

void          _ws_mining_page_set_status          (WsMiningPage   *self,
                                                   const char     *status);
/* The status, and a toast when the page is in a toast overlay */
void          _ws_mining_page_toast               (WsMiningPage   *self,
                                                   const char     *text);
WsMiningItem *_ws_mining_page_get_selected_item   (WsMiningPage   *self);
void          _ws_mining_page_emit_show_events    (WsMiningPage   *self,
                                                   WsDocument     *document,
                                                   WsStackSearch  *search);

/* ws-mining-page-actions.c */
void          _ws_mining_page_update_actions      (WsMiningPage   *self);
void          _ws_mining_page_class_actions_init  (GtkWidgetClass *widget_class);

G_END_DECLS
