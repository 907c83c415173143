/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

/*
 * A Perfetto trace decoded into flat events (ws-perfetto-events.c), for
 * the importer to sort by time and hand to the perf importer's passes
 * (ws-perfetto-importer.c).
 */

#include <gio/gio.h>

#include "ws-stack-table.h"
#include "ws-trace.h"

G_BEGIN_DECLS

typedef enum {
  PF_SWITCH,          /* a: prev_pid (-1: compact, the CPU's last next), b: next_pid,
                       * value: prev_state, s1: prev_comm, s2: next_comm */
  PF_WAKING,          /* a: the thread woken, s1: its comm; tid -1: compact */
  PF_WAKEUP,
  PF_WAKEUP_NEW,
  PF_FORK,            /* a: parent tid, b: child tid */
  PF_EXIT,            /* a: tid */
  PF_NEWTASK,         /* a: tid, value: clone_flags, s1: comm */
  PF_RENAME,          /* a: tid, s1: the new comm (task_rename, sched_process_exec) */
  PF_PROCESS_THREAD,  /* a: tid, b: its process, value: the parent process + 1 (0: none), s1: name */
  PF_SAMPLE,          /* a CPU sample: value: period, name: its event, stack */
  PF_STACK,           /* the stack of a tracepoint event: a: which (PF_SWITCH…) */
} PfKind;

/* Set in flags: the event ran in a hard interrupt (ftrace's common_flags). */
#define PF_FLAG_HARDIRQ 1

typedef struct {
  gint64      time;
  guint32     order;    /* in the file: same-time events keep it */
  guint16     cpu;
  guint8      kind;
  guint8      flags;
  gint32      tid;      /* the thread the event ran in; -1 not said */
  gint32      pid;      /* its process, -1 not said (PerfSample only) */
  gint32      a;
  gint32      b;
  guint64     value;
  const char *s1;
  const char *s2;
  guint32     stack;    /* PF_SAMPLE, PF_STACK: a WsStackId */
  guint32     name;     /* PF_SAMPLE: the event's name (string id) */
} PfEvent;

typedef struct {
  GArray       *events;         /* PfEvent */
  GStringChunk *strings;        /* the s1/s2 strings, each once */
  guint         n_compact_skipped;
  guint         n_samples_dropped;
  guint         n_zstd_packets;
} PfDecoded;

gboolean ws_perfetto_decode        (const guint8  *data,
                                    gsize          len,
                                    const char    *display_name,
                                    WsTrace       *trace,
                                    WsStackTable  *stacks,
                                    GCancellable  *cancellable,
                                    PfDecoded     *out,
                                    GError       **error);
void     ws_perfetto_decoded_clear (PfDecoded     *decoded);

G_END_DECLS
