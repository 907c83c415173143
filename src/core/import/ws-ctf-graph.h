/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

/* The libbabeltrace2 graph that reads CTF traces for ws-ctf-reader.c,
 * and the child process that reads them first (ws-ctf-graph.c). */

#include <babeltrace2/babeltrace.h>
#include <gio/gio.h>

G_BEGIN_DECLS

/* A batch of messages in time order; FALSE stops the graph. */
typedef gboolean (*WsCtfMessagesFunc) (const bt_message * const *msgs,
                                       guint64                   count,
                                       gpointer                  data);

gboolean  ws_ctf_graph_run   (const char * const *dirs,
                              bt_logging_level    log_level,
                              WsCtfMessagesFunc   func,
                              gpointer            data,
                              char              **problem);

typedef enum {
  WS_CTF_SKIM_OK,
  WS_CTF_SKIM_CRASHED,
  WS_CTF_SKIM_STALLED,
  WS_CTF_SKIM_CANCELLED,
} WsCtfSkim;

WsCtfSkim ws_ctf_graph_skim  (const char * const *dirs,
                              GCancellable       *cancellable,
                              int                *how,
                              guint64            *n_events,
                              char              **logged);

G_END_DECLS
