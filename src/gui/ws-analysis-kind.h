/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/**
 * WsAnalysisKind:
 * @WS_ANALYSIS_WAIT_GRAPH: StackMine's wait graph of a thread window
 * @WS_ANALYSIS_READY_TREE: the patent's ready tree of the window's longest
 *   wait
 * @WS_ANALYSIS_CRITICAL_PATH: the critical path of the window
 *
 * Which analysis of a thread window is asked for: the window's
 * ::analysis-requested and the Overview page's ::show-analysis carry one.
 * A header of its own so that a page can name one without including the
 * window (pages never include the window).
 */
typedef enum {
  WS_ANALYSIS_WAIT_GRAPH,
  WS_ANALYSIS_READY_TREE,
  WS_ANALYSIS_CRITICAL_PATH,
} WsAnalysisKind;

G_END_DECLS
