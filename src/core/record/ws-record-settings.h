/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/**
 * WsRecordTarget:
 * @WS_RECORD_COMMAND: start a command and record it (and its children)
 *   until it ends
 * @WS_RECORD_PID: record a running process for a duration
 * @WS_RECORD_SYSTEM: record every CPU for a duration (`-a`): the only way to
 *   see wakers in other processes and interrupts
 */
typedef enum {
  WS_RECORD_COMMAND,
  WS_RECORD_PID,
  WS_RECORD_SYSTEM,
} WsRecordTarget;

/**
 * WsRecordStacks:
 * @WS_RECORD_STACKS_FP: frame pointers (`-g`): small files, user stacks
 *   stop at code built without frame pointers
 * @WS_RECORD_STACKS_DWARF: `--call-graph dwarf`: complete user stacks,
 *   files ~10× larger
 */
typedef enum {
  WS_RECORD_STACKS_FP,
  WS_RECORD_STACKS_DWARF,
} WsRecordStacks;

/**
 * WsRecordSettings:
 * @target: what to record
 * @command: (array zero-terminated=1): the command for %WS_RECORD_COMMAND
 * @pid: the process for %WS_RECORD_PID
 * @duration: seconds to record a pid or the system; for a command, a limit
 *   after which it is stopped (0: until it ends)
 * @stacks: how call stacks are recorded
 * @output: the perf.data file to write
 *
 * One recording, as the Record page and `waitscope-cli record` describe it.
 */
typedef struct {
  WsRecordTarget  target;
  char          **command;
  int             pid;
  double          duration;
  WsRecordStacks  stacks;
  char           *output;
  gboolean        skip_block_requests;  /* the kernel has no block tracepoints */
} WsRecordSettings;

/* Longest duration accepted: a day.  Scheduler events of a busy machine
 * fill ~2.5 MB/s, so longer is a mistake rather than a plan. */
#define WS_RECORD_MAX_DURATION (24.0 * 3600.0)

WsRecordSettings *ws_record_settings_new          (void);
void              ws_record_settings_free         (WsRecordSettings       *settings);
gboolean          ws_record_settings_check        (const WsRecordSettings *settings,
                                                   GError                **error);
GStrv             ws_record_settings_perf_args    (const WsRecordSettings *settings);
char             *ws_record_settings_format       (const WsRecordSettings *settings);
char             *ws_record_settings_default_output (void);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (WsRecordSettings, ws_record_settings_free)

G_END_DECLS
