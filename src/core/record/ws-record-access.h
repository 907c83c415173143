/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/**
 * WsRecordAccessKind:
 * @WS_RECORD_ACCESS_DIRECT: perf can record scheduler events as this user
 *   (root, or perf_event_paranoid -1 and a readable tracefs)
 * @WS_RECORD_ACCESS_PKEXEC: it cannot, but pkexec can run it as root after
 *   asking for a password
 * @WS_RECORD_ACCESS_DENIED: it cannot, and there is no pkexec: the message
 *   says what to change
 * @WS_RECORD_ACCESS_NO_PERF: perf is not installed
 */
typedef enum {
  WS_RECORD_ACCESS_DIRECT,
  WS_RECORD_ACCESS_PKEXEC,
  WS_RECORD_ACCESS_DENIED,
  WS_RECORD_ACCESS_NO_PERF,
} WsRecordAccessKind;

/**
 * WsRecordSystem:
 * @uid: the effective user id
 * @paranoid: /proc/sys/kernel/perf_event_paranoid (G_MAXINT when unreadable)
 * @tracefs_readable: whether the scheduler tracepoints' directory in
 *   tracefs can be read (perf needs it to resolve "sched:…")
 * @perf: (nullable): the perf program, or %NULL when not found
 * @pkexec: (nullable): pkexec, or %NULL
 * @no_block_tracepoints: tracefs is readable and has no
 *   `block:block_rq_issue` (a kernel without the block layer's
 *   tracepoints): the recording leaves them out
 * @host_prefix: (nullable): arguments that run a program on the host
 *   ("flatpak-spawn --host") inside a Flatpak sandbox, else %NULL
 *
 * What decides how perf can be run here, read by ws_record_system_probe()
 * and given by hand in tests.
 */
typedef struct {
  guint   uid;
  int     paranoid;
  gboolean tracefs_readable;
  char   *perf;
  char   *pkexec;
  GStrv   host_prefix;
  gboolean no_block_tracepoints;
} WsRecordSystem;

WsRecordSystem     *ws_record_system_probe   (void);
WsRecordSystem     *ws_record_system_copy    (const WsRecordSystem *system);
void                ws_record_system_free    (WsRecordSystem       *system);
WsRecordAccessKind  ws_record_access_decide  (const WsRecordSystem *system,
                                              char                **message);
GStrv               ws_record_access_argv    (const WsRecordSystem *system,
                                              WsRecordAccessKind    kind,
                                              const char * const   *perf_args);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (WsRecordSystem, ws_record_system_free)

G_END_DECLS
