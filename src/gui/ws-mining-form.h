/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gtk/gtk.h>

#include "ws-mining-run.h"

#include "ws-session.h"

G_BEGIN_DECLS

/**
 * WsMiningScope:
 * @WS_MINING_SCOPE_WHOLE_TRACES: every event; each trace is a stream
 * @WS_MINING_SCOPE_INSTANCES: each scenario instance's thread in its
 *   window; each instance is a stream whose delay is its duration
 * @WS_MINING_SCOPE_INSTANCE_GRAPHS: the wait graph (or critical path) of
 *   each scenario instance; each instance is a stream
 * @WS_MINING_SCOPE_SELECTION_GRAPH: the wait graph of the window selected
 *   in the timeline
 * @WS_MINING_SCOPE_DELAYING: every running sample and the waits that
 *   delayed another thread, no idle loops; each trace is a stream.  The
 *   default (the core's, ws_mining_settings_init()); last so that stored
 *   choices keep their meaning
 *
 * The scope-based extraction of StackMine §IV, as the panel offers it.
 */
typedef enum {
  WS_MINING_SCOPE_WHOLE_TRACES,
  WS_MINING_SCOPE_INSTANCES,
  WS_MINING_SCOPE_INSTANCE_GRAPHS,
  WS_MINING_SCOPE_SELECTION_GRAPH,
  WS_MINING_SCOPE_DELAYING,
} WsMiningScope;

/*
 * WsMiningForm: the left side of the Mining page, what to mine: which of
 * the session's traces (ticked), the area of interest (scope, threads,
 * stack kind, content filters), λ with the paper's guideline helper, and
 * the clustering's threshold and linkage, each kept in the settings.
 * ::changed says the traces chosen changed.
 */
#define WS_TYPE_MINING_FORM (ws_mining_form_get_type ())
G_DECLARE_FINAL_TYPE (WsMiningForm, ws_mining_form, WS, MINING_FORM, GtkWidget)

void           ws_mining_form_set_session     (WsMiningForm  *self,
                                               WsSession     *session);
GPtrArray     *ws_mining_form_dup_chosen      (WsMiningForm  *self);
WsMiningScope  ws_mining_form_get_scope       (WsMiningForm  *self);
char          *ws_mining_form_dup_scope_words (WsMiningForm  *self);
void           ws_mining_form_set_scope       (WsMiningForm  *self,
                                               WsMiningScope  scope);
gboolean       ws_mining_form_get_running     (WsMiningForm  *self);
gboolean       ws_mining_form_get_critical_path
                                              (WsMiningForm  *self);
void           ws_mining_form_set_running     (WsMiningForm  *self,
                                               gboolean       running);
gboolean       ws_mining_form_get_by_cause    (WsMiningForm  *self);
void           ws_mining_form_set_by_cause    (WsMiningForm  *self,
                                               gboolean       by_cause);
void           ws_mining_form_set_critical_path
                                              (WsMiningForm  *self,
                                               gboolean       critical_path);
const char    *ws_mining_form_get_threads     (WsMiningForm  *self);
void           ws_mining_form_set_threads     (WsMiningForm  *self,
                                               const char    *threads);
const char    *ws_mining_form_get_must        (WsMiningForm  *self);
const char    *ws_mining_form_get_must_not    (WsMiningForm  *self);
void           ws_mining_form_set_filters     (WsMiningForm  *self,
                                               const char    *must,
                                               const char    *must_not);
gint64         ws_mining_form_get_lambda      (WsMiningForm  *self);
void           ws_mining_form_set_lambda      (WsMiningForm  *self,
                                               gint64         lambda);
void           ws_mining_form_set_guideline   (WsMiningForm  *self,
                                               double         share_of_traces,
                                               gint64         delay_per_trace);
double         ws_mining_form_get_threshold   (WsMiningForm  *self);
void           ws_mining_form_set_threshold   (WsMiningForm  *self,
                                               double         threshold);
WsLinkage      ws_mining_form_get_linkage     (WsMiningForm  *self);
void           ws_mining_form_set_linkage     (WsMiningForm  *self,
                                               WsLinkage      linkage);

/* The core's scope for a panel's scope, and the panel's scope that
 * stands for the core's default (ws_mining_settings_init()). */
WsMiningRunScope ws_mining_scope_to_run_scope (WsMiningScope scope);
WsMiningScope    ws_mining_scope_default      (void);
WsMiningScope    ws_mining_scope_from_run_scope (WsMiningRunScope scope);

G_END_DECLS
