/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "ws-digest.h"

#include <gio/gio.h>

#include "ws-mining-form.h"
#include "ws-mining-run.h"
#include "ws-pin.h"
#include "ws-progress-relay.h"
#include "ws-session.h"

G_BEGIN_DECLS

/*
 * WsMiningRequest: one run of the Mining page: the form's choices, the
 * traces ticked, the timeline's selection and the session's history
 * store, turned into the core's WsMiningSettings and run in a worker
 * thread (ws_mining_request_run_in_thread(), a GTaskThreadFunc over the
 * request as task data) through ws_mining_run(), the entry point
 * `waitscope-cli mine` and `cluster` call too.  Its answer is a
 * WsMiningShown: the core's result with the documents mined.
 */
typedef struct _WsMiningRequest WsMiningRequest;

typedef struct {
  /*< private >*/
  grefcount       ref_count;
  /*< public >*/
  WsMiningResult *run;
  GPtrArray      *documents;    /* WsDocument, one per trace */
  GPtrArray      *traces;       /* WsTrace: the run's */
  WsStackDb      *db;
  WsPatternSet   *patterns;
  WsClusterSet   *clusters;
  WsSimilarity   *similarity;
  gint64          lambda;
  gboolean        history_used;
  gint64          elapsed_us;
  WsPin          *pin;          /* an alignment pin of the run, no cluster yet */
  GArray         *classes;      /* WsRunClass per trace mined, or NULL: none given */
  WsClusterRank   rank;         /* the order the run ranked by */
} WsMiningShown;

WsMiningRequest *ws_mining_request_new            (WsMiningForm    *form,
                                                   GPtrArray       *documents,
                                                   WsSession       *session,
                                                   WsClusterRank    rank,
                                                   WsProgressRelay *progress);
void             ws_mining_request_free           (WsMiningRequest *request);
void             ws_mining_request_set_digest     (WsMiningRequest *request,
                                                   WsDigest        *digest);
void             ws_mining_request_set_classes    (WsMiningRequest *request,
                                                   GArray          *classes,
                                                   WsClusterRank    rank);
void             ws_mining_request_set_scope      (WsMiningRequest *request,
                                                   WsMiningScope    scope);
void             ws_mining_request_set_by_cause   (WsMiningRequest *request,
                                                   gboolean         by_cause);
void             ws_mining_request_set_record_history (WsMiningRequest *request,
                                                       gboolean         record);
WsMiningResult  *ws_mining_request_run            (WsMiningRequest *request,
                                                   GCancellable    *cancellable,
                                                   GError         **error);
void             ws_mining_request_run_in_thread  (GTask           *task,
                                                   gpointer         source_object,
                                                   gpointer         task_data,
                                                   GCancellable    *cancellable);

WsMiningShown   *ws_mining_shown_ref              (WsMiningShown   *shown);
void             ws_mining_shown_unref            (WsMiningShown   *shown);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (WsMiningShown, ws_mining_shown_unref)

G_END_DECLS
