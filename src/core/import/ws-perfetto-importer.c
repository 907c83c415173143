/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Perfetto protobuf traces (`.perfetto-trace`, `.pftrace`, `.pb`, gzip or
 * not; docs/importers.md, "Perfetto").  ws-perfetto-reader.c reads the
 * wire format, ws-perfetto-events.c Perfetto's messages; here the events
 * are put in time order and handed to the perf importer's first pass
 * (ws_perf_parser_switch() and friends, shared with trace-cmd), and its
 * second pass (ws_perf_derive()) makes the waits, readiers, preemptions
 * and spans: the same scheduler events make the same timeline whichever
 * tool recorded them.  What Perfetto adds or lacks:
 *
 *  - the compact sched encoding leaves out the thread each sched_switch
 *    and sched_waking ran in: it is the CPU's last next_pid (and its
 *    prev_comm that switch's next_comm), so the first
 *    compact switch on each CPU only says who runs next (Perfetto's own
 *    trace processor drops it too), and a compact waking before it has no
 *    waker and is skipped;
 *  - ftrace events carry thread ids only: processes and names come from
 *    ProcessTree packets, task_newtask/sched_process_fork and the comms;
 *  - call stacks come from PerfSample packets: samples of a counter
 *    (cpu-clock) are CPU samples; samples whose timebase is a scheduler
 *    tracepoint are the stacks of those events, each given to the CPU's
 *    last event of that tracepoint in the same thread.
 */
#include "config.h"

#include <string.h>

#include <glib/gi18n-lib.h>

#include "ws-importer.h"
#include "ws-importer-open.h"
#include "ws-perf-private.h"
#include "ws-perfetto-events.h"
#include "ws-perfetto-importer.h"
#include "ws-perfetto-reader.h"

/* The kernel's clone flag that makes a thread, not a process. */
#define CLONE_THREAD_FLAG 0x00010000
/* More CPUs than any machine has: a damaged bundle. */
#define MAX_CPUS 8192
/* Frames a stack holds at most (the events' decoder cuts deeper ones). */
#define MAX_FRAMES 512

/* TracePacket fields a trace's first packet plausibly holds: 1 if a
 * number (timestamp, sequence id, flags…), 2 if a message or bytes, 0 if
 * not one of them. */
static int
packet_field_kind (guint32 number)
{
  switch (number)
    {
    case 3: case 8: case 10: case 13: case 41: case 42: case 58: case 79:
      return 1;
    case 1: case 2: case 5: case 6: case 9: case 11: case 12: case 33: case 34: case 35: case 36:
    case 43: case 44: case 45: case 50: case 59: case 60: case 66: case 69: case 89: case 133:
      return 2;
    default:
      return 0;
    }
}

/**
 * ws_perfetto_importer_sniff:
 * @head: the first bytes of a file, inflated if it was gzip
 *
 * A Trace starts with its first packet: field 1, length-delimited (the
 * byte 0x0a), a varint length, then a TracePacket whose fields read as
 * protocol buffer fields of numbers a packet has, up to its end (or the
 * end of @head).  Text that starts with a newline reads as something else
 * within a few bytes.
 *
 * Returns: whether @head starts a Perfetto trace
 */
gboolean
ws_perfetto_importer_sniff (const guint8 *head,
                            gsize         len)
{
  WsPbCursor c;
  WsPbField f;
  WsPbStatus status;
  guint n_known = 0, n_fields = 0;
  gsize packet_len, avail;

  g_return_val_if_fail (head != NULL || len == 0, FALSE);

  if (len < 4 || head[0] != 0x0a)
    return FALSE;
  ws_pb_cursor_init (&c, head, head, len);
  if (ws_pb_next (&c, &f) != WS_PB_OK)
    {
      /* The first packet is longer than the head: read what is there. */
      guint64 v = 0;
      gsize i = 1;

      for (guint shift = 0; i < len && i < 11; shift += 7, i++)
        {
          v |= (guint64) (head[i] & 0x7f) << shift;
          if ((head[i] & 0x80) == 0)
            break;
        }
      if (i >= len || i >= 11 || v < 2)
        return FALSE;
      packet_len = (gsize) MIN (v, (guint64) len);
      avail = len - (i + 1);
      ws_pb_cursor_init (&c, head, head + i + 1, MIN (avail, packet_len));
    }
  else
    {
      if (f.len < 2)
        return FALSE;
      /* A whole first packet: the next one starts as the first did. */
      if (c.pos < c.end && *c.pos != 0x0a)
        return FALSE;
      ws_pb_cursor_init (&c, head, f.data, f.len);
    }

  while ((status = ws_pb_next (&c, &f)) == WS_PB_OK)
    {
      int kind = packet_field_kind (f.number);

      n_fields++;
      /* A known field of the wrong wire type, or a fixed-size one (no
       * packet field is): text, read as fields. */
      if ((kind == 1 && f.wire != WS_PB_VARINT) || (kind == 2 && f.wire != WS_PB_BYTES) ||
          f.wire == WS_PB_FIXED32 || f.wire == WS_PB_FIXED64 || f.number > 1000)
        return FALSE;
      n_known += kind != 0;
    }
  /* A field cut by the end of the head is no proof against it. */
  if (status != WS_PB_END && !(status == WS_PB_TOO_LONG && c.end == head + len) &&
      !(status == WS_PB_BAD_VARINT && c.end == head + len))
    return FALSE;
  return n_known > 0 && n_known * 2 >= n_fields;
}

/* ---- events → the perf importer's records ---------------------------- */

typedef struct {
  gint32      current;      /* the thread running, -1 not yet known */
  const char *current_comm; /* its next_comm when it was switched in */
  gboolean  held;         /* an event kept for its stack */
  guint8    held_kind;
  gint32    held_tid;
  Record    record;
  guint     n_frames;
  WsFrameId frames[MAX_FRAMES];
} Cpu;

typedef struct {
  Parser      p;
  Cpu        *cpus;
  guint       n_cpus;
  GHashTable *clone_flags;   /* child tid -> task_newtask's clone_flags */
  guint32     marker_fork, marker_exit, marker_newtask;
  RecordType  type_waking, type_wakeup, type_wakeup_new;
  guint       n_unmatched_stacks;
} Feeder;

static int
compare_events (gconstpointer a,
                gconstpointer b)
{
  const PfEvent *x = a, *y = b;
  /* At the same time: process names first, then the events, then the
   * stacks sampled at them. */
  int cx = x->kind == PF_PROCESS_THREAD ? 0 : x->kind == PF_STACK ? 2 : 1;
  int cy = y->kind == PF_PROCESS_THREAD ? 0 : y->kind == PF_STACK ? 2 : 1;

  if (x->time != y->time)
    return x->time < y->time ? -1 : 1;
  if (cx != cy)
    return cx - cy;
  return x->order < y->order ? -1 : x->order > y->order;
}

static void
release (Feeder *f,
         Cpu    *cpu)
{
  if (!cpu->held)
    return;
  cpu->held = FALSE;
  ws_perf_parser_add_record (&f->p, &cpu->record, cpu->frames, cpu->n_frames);
}

static void
hold (Cpu          *cpu,
      const Record *rec,
      guint8        kind,
      gint32        tid)
{
  cpu->record = *rec;
  cpu->held = TRUE;
  cpu->held_kind = kind;
  cpu->held_tid = tid;
  cpu->n_frames = 0;
}

/* @stack (caller first) as @frames, leaf first as perf prints them. */
static guint
leaf_first (WsStackTable *stacks,
            guint32       stack,
            WsFrameId    *frames)
{
  const WsFrameId *caller_first;
  guint n = 0;

  if (stack == WS_STACK_EMPTY)
    return 0;
  caller_first = ws_stack_table_get_stack (stacks, stack, &n);
  n = MIN (n, MAX_FRAMES);
  for (guint i = 0; i < n; i++)
    frames[i] = caller_first[n - 1 - i];
  return n;
}

static Record
new_record (Feeder        *f,
            const PfEvent *e,
            gint32         tid,
            gint32         pid)
{
  Record rec;

  memset (&rec, 0, sizeof rec);
  rec.time = e->time;
  rec.thread = ws_perf_parser_thread (&f->p, tid, pid);
  rec.stack = WS_STACK_EMPTY;
  rec.a = rec.b = WS_NONE;
  rec.name = WS_NONE;
  rec.cpu = e->cpu;
  return rec;
}

static void
add_marker (Feeder        *f,
            const PfEvent *e,
            guint32        marker,
            Cpu           *cpu)
{
  gint32 tid = e->tid >= 0 ? e->tid : cpu->current;
  Record rec;

  if (tid < 0)
    return;
  rec = new_record (f, e, tid, ws_perf_parser_task_pid (&f->p, tid));
  rec.type = REC_MARKER;
  rec.a = marker;
  /* Held, like the scheduler events, for a stack sampled at it. */
  hold (cpu, &rec, e->kind, tid);
}

/* task_newtask says whether the child is a thread of the parent's
 * process; sched_process_fork names the parent (as for trace-cmd). */
static void
feed_task (Feeder        *f,
           const PfEvent *e,
           Cpu           *cpu)
{
  gpointer flags;

  switch (e->kind)
    {
    case PF_NEWTASK:
      g_hash_table_insert (f->clone_flags, GINT_TO_POINTER (e->a), GSIZE_TO_POINTER ((gsize) e->value));
      add_marker (f, e, f->marker_newtask, cpu);
      break;
    case PF_FORK:
      {
        gint32 parent_pid = ws_perf_parser_task_pid (&f->p, e->a), child_pid = -1;

        if (parent_pid < 0)
          parent_pid = e->a;
        if (g_hash_table_lookup_extended (f->clone_flags, GINT_TO_POINTER (e->b), NULL, &flags))
          {
            child_pid = (GPOINTER_TO_SIZE (flags) & CLONE_THREAD_FLAG) ? parent_pid : e->b;
            g_hash_table_remove (f->clone_flags, GINT_TO_POINTER (e->b));
          }
        ws_perf_parser_task (&f->p, WS_PERF_TASK_FORK, child_pid, e->b, parent_pid, NULL, e->time);
        add_marker (f, e, f->marker_fork, cpu);
      }
      break;
    case PF_EXIT:
      add_marker (f, e, f->marker_exit, cpu);
      ws_perf_parser_task (&f->p, WS_PERF_TASK_EXIT, ws_perf_parser_task_pid (&f->p, e->a), e->a, -1, NULL,
                           e->time);
      break;
    case PF_RENAME:
      if (e->a > 0 && e->s1 != NULL && e->s1[0] != '\0')
        ws_perf_parser_task (&f->p, WS_PERF_TASK_COMM, ws_perf_parser_task_pid (&f->p, e->a), e->a, -1,
                             e->s1, e->time);
      break;
    case PF_PROCESS_THREAD:
      if (e->a > 0 && e->s1 != NULL && e->s1[0] != '\0')
        ws_perf_parser_task (&f->p, WS_PERF_TASK_COMM, e->b, e->a, -1, e->s1, e->time);
      if (e->value > 0 && e->b > 0 && (gint32) (e->value - 1) != e->b)
        ws_trace_set_process_parent (f->p.trace, e->b, (gint32) (e->value - 1));
      break;
    default:
      break;
    }
}

static void
feed_event (Feeder        *f,
            const PfEvent *e,
            PfDecoded     *decoded)
{
  Cpu *cpu = &f->cpus[e->cpu];
  const char *prev_comm;
  gint32 tid;
  Record rec;

  switch (e->kind)
    {
    case PF_SWITCH:
      release (f, cpu);
      /* Compact: the thread switched out is the one the CPU ran. */
      tid = e->a >= 0 ? (e->tid >= 0 ? e->tid : e->a) : cpu->current;
      if (tid < 0 || (e->a < 0 && cpu->current < 0))
        {
          decoded->n_compact_skipped++;
          cpu->current = e->b;
          cpu->current_comm = e->s2;
          return;
        }
      /* Compact: prev_comm is the name it was switched in with. */
      prev_comm = e->a >= 0 ? e->s1 : cpu->current_comm;
      rec = new_record (f, e, tid, ws_perf_parser_task_pid (&f->p, tid));
      rec.type = REC_SWITCH;
      ws_perf_parser_switch (&f->p, &rec, tid, ws_perf_parser_task_pid (&f->p, tid), e->a >= 0 ? e->a : tid,
                             prev_comm, prev_comm ? strlen (prev_comm) : 0, e->value, e->b, e->s2,
                             e->s2 ? strlen (e->s2) : 0);
      cpu->current = e->b;
      cpu->current_comm = e->s2;
      hold (cpu, &rec, PF_SWITCH, tid);
      return;

    case PF_WAKING:
    case PF_WAKEUP:
    case PF_WAKEUP_NEW:
      release (f, cpu);
      tid = e->tid >= 0 ? e->tid : cpu->current;
      if (tid < 0)
        {
          decoded->n_compact_skipped++;
          return;
        }
      rec = new_record (f, e, tid, ws_perf_parser_task_pid (&f->p, tid));
      rec.type = e->kind == PF_WAKING ? f->type_waking : e->kind == PF_WAKEUP ? f->type_wakeup : f->type_wakeup_new;
      ws_perf_parser_wake (&f->p, &rec, e->a, e->s1, e->s1 ? strlen (e->s1) : 0);
      if (e->flags & PF_FLAG_HARDIRQ)
        rec.type |= REC_INTERRUPT;
      hold (cpu, &rec, e->kind, tid);
      return;

    case PF_SAMPLE:
      {
        WsFrameId frames[MAX_FRAMES];
        guint n = leaf_first (f->p.stacks, e->stack, frames);

        rec = new_record (f, e, e->tid, e->pid);
        rec.type = REC_SAMPLE;
        rec.a = (guint32) e->value;
        rec.b = (guint32) (e->value >> 32);
        rec.name = e->name;
        ws_perf_parser_add_record (&f->p, &rec, frames, n);
      }
      return;

    case PF_STACK:
      if (cpu->held && cpu->held_kind == (guint8) e->a && cpu->held_tid == e->tid && cpu->n_frames == 0)
        cpu->n_frames = leaf_first (f->p.stacks, e->stack, cpu->frames);
      else
        f->n_unmatched_stacks++;
      return;

    default:
      if (e->kind != PF_PROCESS_THREAD && e->kind != PF_RENAME)
        release (f, cpu);
      feed_task (f, e, cpu);
      return;
    }
}

/* The decoded events, in time order, through the perf importer's passes. */
static WsTrace *
build_trace (WsTrace        *trace,
             PfDecoded      *decoded,
             const char     *display_name,
             Progress       *progress,
             GCancellable   *cancellable,
             GError        **error)
{
  g_autoptr(WsTrace) owned = trace;
  Feeder f = { 0 };
  guint32 unused;
  gboolean ok = FALSE;
  guint n_cpus = 1;

  g_array_sort (decoded->events, compare_events);
  for (guint i = 0; i < decoded->events->len; i++)
    n_cpus = MAX (n_cpus, (guint) g_array_index (decoded->events, PfEvent, i).cpu + 1);
  if (n_cpus > MAX_CPUS)
    {
      g_autofree char *n = g_strdup_printf ("%u", n_cpus - 1);
      g_set_error (error, WS_ERROR, WS_ERROR_PARSE, _("%s:1: the Perfetto trace is damaged: an event on CPU %s"),
                   display_name, n);
      return NULL;
    }

  ws_perf_parser_init (&f.p, display_name, trace);
  f.p.in_time_order = TRUE;
  f.n_cpus = n_cpus;
  f.cpus = g_new0 (Cpu, n_cpus);
  for (guint i = 0; i < n_cpus; i++)
    f.cpus[i].current = -1;
  f.clone_flags = g_hash_table_new (NULL, NULL);
  f.type_waking = ws_perf_parser_event_type (&f.p, "sched:sched_waking", 18, &unused);
  f.type_wakeup = ws_perf_parser_event_type (&f.p, "sched:sched_wakeup", 18, &unused);
  f.type_wakeup_new = ws_perf_parser_event_type (&f.p, "sched:sched_wakeup_new", 22, &unused);
  ws_perf_parser_event_type (&f.p, "sched:sched_process_fork", 24, &f.marker_fork);
  ws_perf_parser_event_type (&f.p, "sched:sched_process_exit", 24, &f.marker_exit);
  ws_perf_parser_event_type (&f.p, "task:task_newtask", 17, &f.marker_newtask);

  /* The idle task, thread 0 of process 0, is in no process tree. */
  ws_perf_parser_task (&f.p, WS_PERF_TASK_COMM, 0, 0, -1, "swapper", G_MININT64 + 1);

  for (guint i = 0; i < decoded->events->len; i++)
    feed_event (&f, &g_array_index (decoded->events, PfEvent, i), decoded);
  for (guint i = 0; i < n_cpus; i++)
    release (&f, &f.cpus[i]);

  if (f.p.records.n == 0)
    g_set_error (error, WS_ERROR, WS_ERROR_EMPTY,
                 decoded->n_zstd_packets > 0
                   ? _("%s:1: no scheduler events or samples in this Perfetto trace (its packets are compressed with "
                       "zstd, which this build does not read)")
                   : _("%s:1: no scheduler events or samples in this Perfetto trace"),
                 display_name);
  else if (ws_perf_derive (&f.p, progress, cancellable, error))
    {
      ws_perf_apply_thread_info (&f.p);
      ok = TRUE;
    }
  if (decoded->n_compact_skipped > 0 || f.n_unmatched_stacks > 0 || decoded->n_samples_dropped > 0)
    g_debug ("%s: %u compact events before their CPU's first switch, %u stacks without their event, "
             "%u samples of events not read", display_name, decoded->n_compact_skipped, f.n_unmatched_stacks,
             decoded->n_samples_dropped);
  ws_perf_parser_clear (&f.p);
  g_hash_table_unref (f.clone_flags);
  g_free (f.cpus);
  if (!ok)
    return NULL;
  ws_trace_finish (trace);
  return g_steal_pointer (&owned);
}

/* ---- loading --------------------------------------------------------- */

/* The whole of @stream (inflated when @compressed, within the
 * decompression ceiling): a trace is read at once, its size its own. */
static GBytes *
read_all (GInputStream  *stream,
          gboolean       compressed,
          const char    *display_name,
          GCancellable  *cancellable,
          GError       **error)
{
  g_autoptr(GInputStream) input = ws_importer_text_stream (stream, compressed);
  g_autoptr(GOutputStream) memory = g_memory_output_stream_new_resizable ();
  g_autoptr(GError) local_error = NULL;

  if (g_output_stream_splice (memory, input,
                              G_OUTPUT_STREAM_SPLICE_CLOSE_SOURCE | G_OUTPUT_STREAM_SPLICE_CLOSE_TARGET,
                              cancellable, &local_error) < 0)
    {
      WsError code = g_error_matches (local_error, G_IO_ERROR, G_IO_ERROR_CANCELLED) ? WS_ERROR_CANCELLED
                     : local_error->domain == WS_ERROR ? (WsError) local_error->code : WS_ERROR_IO;

      g_set_error (error, WS_ERROR, code, "%s:1: %s", display_name, local_error->message);
      return NULL;
    }
  return g_memory_output_stream_steal_as_bytes (G_MEMORY_OUTPUT_STREAM (memory));
}

static WsTrace *
load_bytes (GBytes         *bytes,
            const char     *display_name,
            WsStackTable   *stacks,
            WsProgressFunc  progress_func,
            gpointer        progress_data,
            GCancellable   *cancellable,
            GError        **error)
{
  Progress progress = { progress_func, progress_data, 0, -1.0, 0 };
  PfDecoded decoded = { 0 };
  WsTrace *trace;
  gsize len;
  const guint8 *data = g_bytes_get_data (bytes, &len);

  ws_perf_report (&progress, 0.0, _("Reading Perfetto packets"));
  trace = ws_trace_new (display_name, stacks);
  if (!ws_perfetto_decode (data, len, display_name, trace, ws_trace_get_stack_table (trace), cancellable, &decoded,
                           error))
    {
      ws_perfetto_decoded_clear (&decoded);
      g_object_unref (trace);
      return NULL;
    }
  trace = build_trace (trace, &decoded, display_name, &progress, cancellable, error);
  ws_perfetto_decoded_clear (&decoded);
  if (trace != NULL)
    ws_perf_report (&progress, 1.0, _("Reading Perfetto packets"));
  return trace;
}

static WsTrace *
perfetto_load_stream (GInputStream   *stream,
                      const char     *display_name,
                      gboolean        compressed,
                      WsStackTable   *stacks,
                      WsProgressFunc  progress,
                      gpointer        progress_data,
                      GCancellable   *cancellable,
                      GError        **error)
{
  g_autoptr(GBytes) bytes = NULL;

  display_name = display_name ? display_name : "stdin";
  bytes = read_all (stream, compressed, display_name, cancellable, error);
  if (bytes == NULL)
    return NULL;
  return load_bytes (bytes, display_name, stacks, progress, progress_data, cancellable, error);
}

/**
 * ws_perfetto_importer_load:
 * @path: a Perfetto trace, plain or gzip-compressed
 * @stacks: (nullable): a stack table to share with other traces
 *
 * Returns: (transfer full): the trace, or %NULL with @error set to a
 *   %WS_ERROR whose message starts "PATH:1: "
 */
WsTrace *
ws_perfetto_importer_load (const char     *path,
                           WsStackTable   *stacks,
                           WsProgressFunc  progress,
                           gpointer        progress_data,
                           GCancellable   *cancellable,
                           GError        **error)
{
  g_autoptr(GFileInputStream) stream = NULL;
  g_autoptr(GError) local_error = NULL;
  g_autoptr(GMappedFile) mapped = NULL;
  gboolean compressed = FALSE;

  g_return_val_if_fail (path != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if ((stream = ws_importer_open_file (path, &compressed, cancellable, error)) == NULL)
    return NULL;
  if (compressed)
    return perfetto_load_stream (G_INPUT_STREAM (stream), path, TRUE, stacks, progress, progress_data,
                                 cancellable, error);

  /* A plain file is read in place. */
  mapped = g_mapped_file_new (path, FALSE, &local_error);
  if (mapped == NULL)
    {
      g_set_error (error, WS_ERROR, WS_ERROR_IO, "%s:1: %s", path, local_error->message);
      return NULL;
    }
  {
    g_autoptr(GBytes) bytes = g_mapped_file_get_bytes (mapped);

    return load_bytes (bytes, path, stacks, progress, progress_data, cancellable, error);
  }
}

static const char * const perfetto_patterns[] = {
  "*.perfetto-trace", "*.pftrace", "*.pb", "*.perfetto-trace.gz", "*.pftrace.gz", "*.pb.gz", NULL
};

const WsImporter ws_perfetto_importer = {
  .id = "perfetto",
  .name = N_("Perfetto protobuf trace"),
  .patterns = perfetto_patterns,
  .sniff = ws_perfetto_importer_sniff,
  .load_file = ws_perfetto_importer_load,
  .load_stream = perfetto_load_stream,
};
