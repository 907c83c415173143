/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gio/gio.h>

#include "ws-progress.h"
#include "ws-ready-tree.h"
#include "ws-symptom.h"

G_BEGIN_DECLS

/**
 * WsReadyTreeSettings:
 * @symptom: the thread and window whose longest wait is the root (the
 *   longest lock-related one with @options.lock_only)
 * @root_event: a WAIT event to start from instead, or %WS_NONE (then
 *   @symptom is used)
 * @options: how far the tree grows (see #WsReadyTreeOptions)
 *
 * Everything a ready tree depends on.  The chain metric is not among them:
 * the tree does not depend on it, ws_ready_tree_anomalous_chain() picks the
 * chain from a finished tree.  Initialise with ws_ready_tree_settings_init().
 */
typedef struct {
  WsSymptom          symptom;
  guint              root_event;
  WsReadyTreeOptions options;
} WsReadyTreeSettings;

void         ws_ready_tree_settings_init (WsReadyTreeSettings       *settings,
                                          const WsSymptom           *symptom);

/*
 * ws_ready_tree_run:
 * The one entry point of the ready-tree analysis, for the CLI and the GUI
 * alike.  May run in any thread.  @progress (nullable) is called from that
 * thread as the root is chosen and when the tree is done; @cancellable is
 * polled between those steps (a tree is bounded by its node budget).
 *
 * Returns: (transfer full): the tree, or %NULL with @error set
 *   (WS_ERROR_INVALID: no such thread, no wait in the window, @root_event
 *   not a wait; G_IO_ERROR_CANCELLED, as for any GCancellable)
 */
WsReadyTree *ws_ready_tree_run           (WsTrace                   *trace,
                                          const WsReadyTreeSettings *settings,
                                          GCancellable              *cancellable,
                                          WsProgressFunc             progress,
                                          gpointer                   progress_data,
                                          GError                   **error);

G_END_DECLS
