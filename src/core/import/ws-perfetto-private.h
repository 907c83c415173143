/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

/*
 * Shared by the files that decode Perfetto's messages (ws-perfetto-events.c:
 * packets, sequences and the entry point; ws-perfetto-ftrace.c: ftrace
 * bundles, compact sched, the process tree; ws-perfetto-profile.c:
 * interned data, timebases, PerfSample).
 */

#include "ws-perfetto-events.h"
#include "ws-perfetto-reader.h"

G_BEGIN_DECLS

#define SEQ_INCREMENTAL_STATE_CLEARED 1
/* trace_entry flags (include/linux/trace_events.h): in hard interrupt. */
#define TRACE_FLAG_HARDIRQ 0x08
/* Frames a call stack holds at most; deeper ones are cut. */
#define MAX_FRAMES 512
/* compressed_packets nest at most this deep (they never do in practice). */
#define MAX_NESTING 2

typedef struct {
  GHashTable *names;       /* iid -> char*: function names */
  GHashTable *paths;       /* iid -> char*: parts of mapping paths */
  GHashTable *mappings;    /* iid -> char*: the joined path */
  GHashTable *frames;      /* iid -> WsFrameId + 1 */
  GHashTable *callstacks;  /* iid -> WsStackId + 1 */
  GHashTable *counts;      /* cpu -> the timebase count of its last sample */
  gboolean    timebase_set;
  guint8      sample_kind; /* PF_SAMPLE, or PF_STACK */
  gint32      stack_of;    /* PF_STACK: PF_SWITCH, PF_WAKING… (-1: another tracepoint) */
  guint32     sample_name; /* PF_SAMPLE: string id */
} Sequence;

typedef struct {
  const char   *display_name;
  WsTrace      *trace;
  WsStackTable *stacks;
  GCancellable *cancellable;
  PfDecoded    *out;
  GHashTable   *sequences;     /* sequence id -> Sequence */
  GHashTable   *interned;      /* string -> itself in out->strings */
  guint         nesting;
  gsize         outer_offset;  /* compressed packets: where their field is */
  GError       *error;
} Decoder;

/* Runs the body for every field of @c; returns FALSE (error set) from
 * the function on damage. */
#define FOR_EACH_FIELD(c, f, what, ...)                  \
  {                                                      \
    WsPbStatus st_;                                      \
    while ((st_ = ws_pb_next ((c), (f))) == WS_PB_OK)    \
      { __VA_ARGS__ }                                    \
    if (st_ != WS_PB_END)                                \
      return fail_cursor (d, (c), (what));               \
  }

guint64  *key_new            (guint64           v);
gboolean  fail_at            (Decoder          *d,
                              gsize             offset,
                              const char       *what,
                              const char       *why);
gboolean  fail_cursor        (Decoder          *d,
                              const WsPbCursor *c,
                              const char       *what);
const char *intern_text      (Decoder          *d,
                              const WsPbField  *f);
PfEvent  *add_event          (Decoder          *d,
                              PfKind            kind,
                              gint64            time,
                              guint             cpu);
gboolean  append_values      (Decoder          *d,
                              const WsPbCursor *parent,
                              const WsPbField  *f,
                              GArray           *array);

/* ws-perfetto-ftrace.c */
gboolean  read_ftrace_bundle (Decoder          *d,
                              const WsPbCursor *parent,
                              const WsPbField  *field);
gboolean  read_process_tree  (Decoder          *d,
                              const WsPbCursor *parent,
                              const WsPbField  *field,
                              gint64            time);

/* ws-perfetto-profile.c */
gboolean  read_interned      (Decoder          *d,
                              const WsPbCursor *parent,
                              const WsPbField  *field,
                              Sequence         *seq);
gboolean  read_defaults      (Decoder          *d,
                              const WsPbCursor *parent,
                              const WsPbField  *field,
                              Sequence         *seq);
gboolean  read_perf_sample   (Decoder          *d,
                              const WsPbCursor *parent,
                              const WsPbField  *field,
                              Sequence         *seq,
                              gint64            time);

G_END_DECLS
