/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gio/gio.h>

#include "ws-importer.h"
#include "ws-progress.h"
#include "ws-stack-table.h"
#include "ws-trace.h"

G_BEGIN_DECLS

/* What to record to see waits: the scheduler events with call stacks,
 * CPU samples at 499 Hz (only on cpu-clock: -F would sample the
 * tracepoints too and drop most of them), and the block layer's requests.
 * Shown to users of sample-only profiles. */
#define WS_PERF_RECORD_WAITS_COMMAND \
  "perf record -g -a -e sched:sched_switch -e sched:sched_waking -e sched:sched_wakeup " \
  "-e cpu-clock/freq=499,name=cpu-clock/ -e block:block_rq_issue -e block:block_rq_complete " \
  "-o perf.data -- sleep 5"

/* Longest text line the importer accepts; longer lines are an error, so a
 * corrupt file never makes it allocate without bound. */
#define WS_PERF_IMPORTER_MAX_LINE (1024 * 1024)

/**
 * WsPerfImportStats:
 * @input_bytes: bytes read from the file or stream (compressed size for gzip)
 * @text_bytes: bytes of perf script text parsed (after decompression)
 * @lines: text lines parsed
 * @records: event records (header lines other than PERF_RECORD_* task lines)
 * @idle_switches: sched_switch records out of the idle task (pid 0): they
 *   end no wait and start no preemption, so they create no event
 * @exit_switches: sched_switch records of a dying thread (prev_state Z or
 *   X): the thread never runs again, which is not a wait
 * @waits_without_wakeup: waits ended by the next sign of the thread running
 *   because no wake-up was recorded (%WS_EVENT_FLAG_READIER_UNKNOWN)
 * @echo_wakeups: sched_wakeup records that repeat a sched_waking
 * @stack_cache_hits: events whose stack text was found whole in the stack
 *   cache (the fast path) rather than interned frame by frame
 *
 * What an import saw, for tests and benchmarks.
 */
typedef struct {
  guint64 input_bytes;
  guint64 text_bytes;
  guint64 lines;
  guint   records;
  guint   idle_switches;
  guint   exit_switches;
  guint   waits_without_wakeup;
  guint   echo_wakeups;
  guint   stack_cache_hits;
} WsPerfImportStats;

WsImporterLoadFileFunc ws_perf_importer_load;
WsTrace  *ws_perf_importer_load_with_stats  (const char         *path,
                                             WsStackTable       *stacks,
                                             WsPerfImportStats  *stats,
                                             WsProgressFunc      progress,
                                             gpointer            progress_data,
                                             GCancellable       *cancellable,
                                             GError            **error);
WsTrace  *ws_perf_importer_load_stream      (GInputStream       *stream,
                                             const char         *display_name,
                                             WsStackTable       *stacks,
                                             WsProgressFunc      progress,
                                             gpointer            progress_data,
                                             GCancellable       *cancellable,
                                             GError            **error);
WsImporterSniffFunc    ws_perf_importer_sniff;
gboolean  ws_perf_importer_is_interrupt_frame (const char       *function);

G_END_DECLS
