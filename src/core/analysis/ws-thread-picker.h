/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

#include "ws-frame-classifier.h"
#include "ws-trace.h"

G_BEGIN_DECLS

/**
 * WsThreadPick:
 * @trace: the trace (not owned)
 * @program: the chosen program's process name
 * @n_processes: how many processes of that name it spans (PostgreSQL's
 *   backends that wait for one another are one program)
 * @threads: (element-type guint): the chosen thread indices, held up
 *   longest first
 * @inside: summed over the program's threads: time blocked while a thread
 *   of the program itself was what held it up (running, or blocked: a
 *   lock holder, its own I/O) (ns)
 * @outside: time blocked while another program's thread held it up (ns)
 * @cpu: time runnable without a CPU, its own or that of a thread it
 *   waited for (ns)
 * @ran: time on a CPU (ns)
 * @score: what programs were ranked by (ns): @inside + @outside + @cpu
 *   in the share of its busy time the program ran
 *
 * Which program a trace without scenario instances is explained from, and
 * why (ws_thread_pick_describe()).
 */
typedef struct {
  WsTrace *trace;
  char    *program;
  guint    n_processes;
  GArray  *threads;
  WsTime   inside;
  WsTime   outside;
  WsTime   cpu;
  WsTime   ran;
  double   score;
} WsThreadPick;

void     ws_thread_pick_free     (WsThreadPick *pick);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (WsThreadPick, ws_thread_pick_free)

/*
 * ws_thread_pick_describe:
 * One translated sentence saying which program was chosen and why, for
 * the Overview and `waitscope-cli why`.
 *
 * Returns: (transfer full): the sentence
 */
char          *ws_thread_pick_describe (const WsThreadPick *pick);

/*
 * ws_thread_picker_pick:
 * @classifier: (nullable): %NULL = the default lists
 * @k: at most this many threads
 *
 * Without scenarios: the program of @trace held up most by work it waited
 * for, and its @k threads held up longest (see docs/attribution.md, "The
 * thread picker").
 *
 * Returns: (transfer full) (nullable): the pick, or %NULL when no thread
 *   of the trace was held up at all
 */
WsThreadPick  *ws_thread_picker_pick   (WsTrace           *trace,
                                        WsFrameClassifier *classifier,
                                        guint              k);

G_END_DECLS
