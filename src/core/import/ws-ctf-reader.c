/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The libbabeltrace2 side of the CTF importer.  A graph of three
 * components reads the trace: the `ctf` plugin's `fs` source (one message
 * stream per CPU), the `utils` plugin's `muxer` (merges them in time
 * order, as `babeltrace2` itself does) and a simple sink here that turns
 * each LTTng kernel event into the perf importer's 32-byte record, for its
 * second pass (ws_perf_derive()) to make waits, readiers and preemptions
 * exactly as it does for perf and trace-cmd recordings.
 *
 * What an LTTng kernel trace says, and how it is read:
 *
 *  - events carry no thread id (unless a `tid` context was added): the
 *    thread an event ran in is the one each CPU last switched to;
 *  - interrupt context is not in the event either: it is followed per CPU
 *    from irq_handler_entry/exit and irq_softirq_entry/exit, so that a
 *    wake-up there is a hardware service whose one-frame stack names the
 *    kernel's handler of that softirq (net_rx_action, blk_done_softirq,
 *    run_timer_softirq…) or the interrupt's own name under
 *    handle_irq_event, which the frame classifier names like any other;
 *  - the call-stack contexts (`callstack_kernel`, `callstack_user`:
 *    addresses, innermost first) are an event's stack, kernel frames
 *    then user frames as perf prints them, named through a kallsyms file
 *    when the session has one (ws-ctf-symbols.c);
 *  - without call stacks, the system call in progress (syscall_entry_X
 *    until syscall_exit_X, per thread) is the stack of a switch-out, so a
 *    wait reads `futex`, `read`, `recvmsg`;
 *  - block_rq_issue/complete are also the trace's block requests, as
 *    perf's and trace-cmd's are (rwbs as LTTng's integer flags);
 *  - thread names and processes come from sched_switch comms,
 *    lttng_statedump_process_state, sched_process_fork (child_pid) and
 *    sched_process_exec (the file name).
 *
 * libbabeltrace2 crashes on some damaged traces instead of failing (an
 * assertion aborts the process), so a child process reads the trace first
 * and only a trace it read to the end is read here, as the trace-cmd
 * reader does with libtracecmd.
 */
#include "config.h"

#include <babeltrace2/babeltrace.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <glib/gi18n-lib.h>
#include <glib/gstdio.h>

#include "ws-block-requests.h"
#include "ws-ctf-graph.h"
#include "ws-ctf-reader.h"
#include "ws-ctf-symbols.h"
#include "ws-perf-private.h"

/* Softirq vectors (include/linux/interrupt.h). */
#define SOFTIRQ_NET_TX 2
#define SOFTIRQ_NET_RX 3

/* More CPUs than any machine LTTng records has: a damaged packet. */
#define MAX_CPUS 8192

typedef enum {
  KIND_OTHER,
  KIND_SWITCH,
  KIND_WAKE,
  KIND_FORK,
  KIND_EXEC,
  KIND_EXIT,
  KIND_STATEDUMP,
  KIND_IRQ_ENTRY,
  KIND_IRQ_EXIT,
  KIND_SOFTIRQ_ENTRY,
  KIND_SOFTIRQ_EXIT,
  KIND_SOFTIRQ_RAISE,
  KIND_SYSCALL_ENTRY,
  KIND_SYSCALL_EXIT,
  KIND_BLOCK_ISSUE,
  KIND_BLOCK_COMPLETE,
} EventKind;

#define N_FIELDS 6

/* LTTng's call-stack contexts, in the order perf prints their frames. */
static const char *const stack_contexts[] = { "callstack_kernel", "callstack_user" };

/* More frames than LTTng records per context (128 and a ULONG_MAX mark
 * of a stack cut short): a damaged sequence is read this far. */
#define MAX_STACK_FRAMES 256

/* What an event class is, its payload members looked up once. */
typedef struct {
  EventKind  kind;
  RecordType type;
  guint32    marker_id;
  char      *name;              /* the LTTng name, for errors */
  WsFrameId  syscall;           /* SYSCALL_ENTRY: the call's frame */
  gint64     f[N_FIELDS];       /* member indices, -1 absent */
  gint64     ctx_tid;           /* a `tid` common context member, or -1 */
  gint64     ctx_pid;           /* a `pid` common context member, or -1 */
  gint64     ctx_stack[2];      /* the stack_contexts members, or -1 */
} EventInfo;

/* Per CPU: who runs there and in which interrupt context. */
typedef struct {
  gint32    tid;                /* -1 before the CPU's first switch */
  guint     irq_depth;
  WsFrameId irq_frame;
  gint      softirq;            /* the vector, -1 outside softirq */
  gboolean  softirq_in_thread;  /* ...run by the thread it interrupted */
  guint     raised_by_thread;   /* vectors raised outside interrupts */
  gboolean  ksoftirqd;          /* the running thread is ksoftirqd/N */
} CpuState;

typedef struct {
  Parser        p;
  GHashTable   *events;         /* bt_event_class* -> EventInfo */
  GHashTable   *stream_cpu;     /* bt_stream* -> cpu + 1 */
  GHashTable   *syscalls;       /* tid -> syscall frame + 1 */
  GArray       *cpus;           /* CpuState */
  WsCtfSymbols *symbols;        /* names of the call-stack addresses */
  GArray       *frames;         /* WsFrameId: the event's stack, leaf first */
  WsFrameId     handle_irq;
  WsFrameId     softirq_frames[10];
  Progress     *progress;
  GCancellable *cancellable;
  guint64       n_read;
  GError       *error;
} Reader;

static const char *const field_names[][N_FIELDS + 1] = {
  [KIND_SWITCH]        = { "sched_switch", "prev_comm", "prev_tid", "prev_state", "next_comm", "next_tid" },
  [KIND_WAKE]          = { NULL, "comm", "tid" },
  [KIND_FORK]          = { "sched_process_fork", "parent_tid", "child_tid", "child_pid", "child_comm" },
  [KIND_EXEC]          = { "sched_process_exec", "tid", "filename" },
  [KIND_EXIT]          = { "sched_process_exit", "tid", "comm" },
  [KIND_STATEDUMP]     = { "lttng_statedump_process_state", "tid", "pid", "name" },
  [KIND_IRQ_ENTRY]     = { "irq_handler_entry", "irq", "name" },
  [KIND_SOFTIRQ_ENTRY] = { "irq_softirq_entry", "vec" },
  [KIND_SOFTIRQ_EXIT]  = { "irq_softirq_exit", "vec" },
  [KIND_SOFTIRQ_RAISE] = { "irq_softirq_raise", "vec" },
  [KIND_BLOCK_ISSUE]    = { "block_rq_issue", "dev", "sector", "nr_sector", "rwbs", "bytes", "tid" },
  [KIND_BLOCK_COMPLETE] = { "block_rq_complete", "dev", "sector", "nr_sector", "rwbs" },
};

/* The kernel's handler of each softirq vector (kernel/softirq.c,
 * open_softirq()): the frame a wake-up in that softirq would show. */
static const char *const softirq_handlers[10] = {
  "tasklet_hi_action", "run_timer_softirq", "net_tx_action", "net_rx_action", "blk_done_softirq",
  "irq_poll_softirq", "tasklet_action", "run_rebalance_domains", "hrtimer_run_softirq", "rcu_core_si",
};

static void
event_info_free (gpointer data)
{
  EventInfo *info = data;

  g_free (info->name);
  g_free (info);
}

static gboolean
reader_fail (Reader     *r,
             WsError     code,
             const char *format,
             ...) G_GNUC_PRINTF (3, 4);

static gboolean
reader_fail (Reader     *r,
             WsError     code,
             const char *format,
             ...)
{
  g_autofree char *message = NULL;
  g_autofree char *count = g_strdup_printf ("%" G_GUINT64_FORMAT, r->n_read);
  va_list args;

  va_start (args, format);
  message = g_strdup_vprintf (format, args);
  va_end (args);
  if (r->error == NULL)
    g_set_error (&r->error, WS_ERROR, code, _("%s:1: event %s: %s"), r->p.display_name, count, message);
  return FALSE;
}

static gint64
member_index (const bt_field_class *fc,
              const char           *name)
{
  guint64 n;

  if (fc == NULL || name == NULL || bt_field_class_get_type (fc) != BT_FIELD_CLASS_TYPE_STRUCTURE)
    return -1;
  n = bt_field_class_structure_get_member_count (fc);
  for (guint64 i = 0; i < n; i++)
    {
      const bt_field_class_structure_member *m = bt_field_class_structure_borrow_member_by_index_const (fc, i);

      if (g_str_equal (bt_field_class_structure_member_get_name (m), name))
        return (gint64) i;
    }
  return -1;
}

static EventKind
kind_of (const char *name)
{
  if (g_str_equal (name, "sched_switch"))
    return KIND_SWITCH;
  if (g_str_equal (name, "sched_waking") || g_str_equal (name, "sched_wakeup") ||
      g_str_equal (name, "sched_wakeup_new"))
    return KIND_WAKE;
  if (g_str_equal (name, "sched_process_fork"))
    return KIND_FORK;
  if (g_str_equal (name, "sched_process_exec"))
    return KIND_EXEC;
  if (g_str_equal (name, "sched_process_exit"))
    return KIND_EXIT;
  if (g_str_equal (name, "block_rq_issue"))
    return KIND_BLOCK_ISSUE;
  if (g_str_equal (name, "block_rq_complete"))
    return KIND_BLOCK_COMPLETE;
  if (g_str_equal (name, "lttng_statedump_process_state"))
    return KIND_STATEDUMP;
  if (g_str_equal (name, "irq_handler_entry"))
    return KIND_IRQ_ENTRY;
  if (g_str_equal (name, "irq_handler_exit"))
    return KIND_IRQ_EXIT;
  /* LTTng before 2.6 named them softirq_entry/exit, syscalls sys_X and
   * exit_syscall. */
  if (g_str_equal (name, "irq_softirq_entry") || g_str_equal (name, "softirq_entry"))
    return KIND_SOFTIRQ_ENTRY;
  if (g_str_equal (name, "irq_softirq_exit") || g_str_equal (name, "softirq_exit"))
    return KIND_SOFTIRQ_EXIT;
  if (g_str_equal (name, "irq_softirq_raise") || g_str_equal (name, "softirq_raise"))
    return KIND_SOFTIRQ_RAISE;
  if (g_str_has_prefix (name, "syscall_entry_") || g_str_has_prefix (name, "compat_syscall_entry_") ||
      (g_str_has_prefix (name, "sys_") && name[4] != '\0'))
    return KIND_SYSCALL_ENTRY;
  if (g_str_has_prefix (name, "syscall_exit_") || g_str_has_prefix (name, "compat_syscall_exit_") ||
      g_str_equal (name, "exit_syscall"))
    return KIND_SYSCALL_EXIT;
  return KIND_OTHER;
}

static EventInfo *
event_info (Reader         *r,
            const bt_event *event)
{
  const bt_event_class *ec = bt_event_borrow_class_const (event);
  EventInfo *info = g_hash_table_lookup (r->events, ec);
  const bt_field_class *payload, *context;
  const char *name;

  if (info != NULL)
    return info;

  name = bt_event_class_get_name (ec);
  info = g_new0 (EventInfo, 1);
  info->name = g_strdup (name != NULL ? name : "");
  info->kind = kind_of (info->name);
  payload = bt_event_class_borrow_payload_field_class_const (ec);
  context = bt_stream_class_borrow_event_common_context_field_class_const (bt_event_class_borrow_stream_class_const (ec));
  for (guint i = 0; i < N_FIELDS; i++)
    info->f[i] = -1;
  if (info->kind < G_N_ELEMENTS (field_names))
    for (guint i = 1; i <= N_FIELDS && field_names[info->kind][i] != NULL; i++)
      info->f[i - 1] = member_index (payload, field_names[info->kind][i]);
  info->ctx_tid = member_index (context, "tid");
  info->ctx_pid = member_index (context, "pid");
  for (guint i = 0; i < G_N_ELEMENTS (stack_contexts); i++)
    info->ctx_stack[i] = member_index (context, stack_contexts[i]);

  if (info->kind == KIND_SYSCALL_ENTRY)
    {
      const char *call = strstr (info->name, "syscall_entry_");

      call = call != NULL ? call + strlen ("syscall_entry_") : info->name + strlen ("sys_");
      info->syscall = ws_stack_table_intern_frame_len (r->p.stacks, call, strlen (call),
                                                       "[kernel.kallsyms]", strlen ("[kernel.kallsyms]"));
    }

  /* The perf importer's own name for the event ("sched:sched_switch",
   * "block:block_rq_issue"): the same table decides whether it is a
   * switch, a wake-up or a marker. */
  {
    g_autofree char *perf_name = g_strdup_printf ("%s:%s", g_str_has_prefix (info->name, "block_") ? "block" : "sched",
                                                  info->name);
    info->type = ws_perf_parser_event_type (&r->p, perf_name, strlen (perf_name), &info->marker_id);
  }
  g_hash_table_insert (r->events, (gpointer) ec, info);
  return info;
}

/* Member @i of @info in @payload, or NULL with an error naming it. */
static const bt_field *
member (Reader         *r,
        EventInfo      *info,
        const bt_field *payload,
        guint           i)
{
  if (info->f[i] < 0 || payload == NULL)
    return reader_fail (r, WS_ERROR_MISSING_FIELD, _("%s without %s"), info->name,
                        field_names[info->kind][i + 1]), NULL;
  return bt_field_structure_borrow_member_field_by_index_const (payload, (guint64) info->f[i]);
}

static gboolean
field_number (const bt_field *f,
              gint64         *value)
{
  bt_field_class_type t = bt_field_get_class_type (f);

  if (bt_field_class_type_is (t, BT_FIELD_CLASS_TYPE_SIGNED_INTEGER))
    *value = bt_field_integer_signed_get_value (f);
  else if (bt_field_class_type_is (t, BT_FIELD_CLASS_TYPE_UNSIGNED_INTEGER))
    *value = (gint64) MIN (bt_field_integer_unsigned_get_value (f), (guint64) G_MAXINT64);
  else
    return FALSE;
  return TRUE;
}

static gboolean
read_number (Reader         *r,
             EventInfo      *info,
             const bt_field *payload,
             guint           i,
             gint64         *value)
{
  const bt_field *f = member (r, info, payload, i);

  if (f == NULL)
    return FALSE;
  if (!field_number (f, value))
    return reader_fail (r, WS_ERROR_PARSE, _("%s: %s is not a number"), info->name, field_names[info->kind][i + 1]);
  return TRUE;
}

/* A string member; a name that is not UTF-8 (damaged data) is left empty,
 * since no JSON output could hold it. */
static const char *
read_string (Reader         *r,
             EventInfo      *info,
             const bt_field *payload,
             guint           i)
{
  const bt_field *f = member (r, info, payload, i);
  const char *s;

  if (f == NULL)
    return NULL;
  if (bt_field_get_class_type (f) != BT_FIELD_CLASS_TYPE_STRING)
    return reader_fail (r, WS_ERROR_PARSE, _("%s: %s is not text"), info->name, field_names[info->kind][i + 1]), NULL;
  s = bt_field_string_get_value (f);
  return s != NULL && g_utf8_validate (s, -1, NULL) ? s : "";
}

static CpuState *
cpu_state (Reader          *r,
           const bt_event  *event,
           guint           *cpu_out)
{
  const bt_stream *stream = bt_event_borrow_stream_const (event);
  gpointer cached = g_hash_table_lookup (r->stream_cpu, stream);
  guint cpu;

  if (cached != NULL)
    cpu = GPOINTER_TO_UINT (cached) - 1;
  else
    {
      const bt_packet *packet = bt_event_borrow_packet_const (event);
      const bt_field *context = packet != NULL ? bt_packet_borrow_context_field_const (packet) : NULL;
      gint64 idx = context != NULL ? member_index (bt_field_borrow_class_const (context), "cpu_id") : -1;
      gint64 v = -1;

      if (idx < 0 || !field_number (bt_field_structure_borrow_member_field_by_index_const (context, idx), &v))
        v = (gint64) bt_stream_get_id (stream);   /* no cpu_id: one stream, one CPU */
      if (v < 0 || v >= MAX_CPUS)
        {
          g_autofree char *v_text = g_strdup_printf ("%" G_GINT64_FORMAT, v);
          return reader_fail (r, WS_ERROR_PARSE, _("a packet of CPU %s, more than any machine has"), v_text), NULL;
        }
      cpu = (guint) v;
      g_hash_table_insert (r->stream_cpu, (gpointer) stream, GUINT_TO_POINTER (cpu + 1));
    }
  if (cpu >= r->cpus->len)
    {
      guint old = r->cpus->len;

      g_array_set_size (r->cpus, cpu + 1);
      for (guint i = old; i <= cpu; i++)
        g_array_index (r->cpus, CpuState, i) = (CpuState) { .tid = -1, .softirq = -1 };
    }
  *cpu_out = cpu;
  return &g_array_index (r->cpus, CpuState, cpu);
}

static void
name_thread (Reader     *r,
             guint32     thread,
             gint32      tid,
             const char *name,
             gint64      time,
             gboolean    own)
{
  if (name != NULL && *name != '\0')
    ws_perf_parser_name_thread (&r->p, thread, tid, name, strlen (name), time, own);
}

/* Process bookkeeping: fork, exec, exit, statedump; FALSE on error. */
static gboolean
read_task (Reader         *r,
           EventInfo      *info,
           const bt_field *payload,
           gint64          time)
{
  gint64 a, b, c;
  const char *s;

  switch (info->kind)
    {
    case KIND_FORK:
      if (!read_number (r, info, payload, 0, &a) || !read_number (r, info, payload, 1, &b) ||
          !read_number (r, info, payload, 2, &c))
        return FALSE;
      {
        gint32 parent_pid = ws_perf_parser_task_pid (&r->p, (gint32) a);
        ws_perf_parser_task (&r->p, WS_PERF_TASK_FORK, (gint32) c, (gint32) b,
                             parent_pid >= 0 ? parent_pid : (gint32) a, NULL, time);
      }
      if (info->f[3] >= 0 && (s = read_string (r, info, payload, 3)) != NULL && *s != '\0')
        ws_perf_parser_task (&r->p, WS_PERF_TASK_COMM, (gint32) c, (gint32) b, -1, s, time);
      return TRUE;

    case KIND_EXEC:
      if (!read_number (r, info, payload, 0, &a) || (s = read_string (r, info, payload, 1)) == NULL)
        return FALSE;
      {
        /* The comm the kernel gives after exec: the file's base name, cut
         * to 15 bytes as the kernel cuts it. */
        g_autofree char *base = g_path_get_basename (s);
        gsize len = strlen (base);

        if (len > 15)
          {
            const char *end = base + 15;
            g_utf8_validate (base, 15, &end);
            base[end - base] = '\0';
          }
        if (*base != '\0' && !g_str_equal (base, "/") && !g_str_equal (base, "."))
          ws_perf_parser_task (&r->p, WS_PERF_TASK_COMM, ws_perf_parser_task_pid (&r->p, (gint32) a),
                               (gint32) a, -1, base, time);
      }
      return TRUE;

    case KIND_EXIT:
      if (!read_number (r, info, payload, 0, &a))
        return FALSE;
      ws_perf_parser_task (&r->p, WS_PERF_TASK_EXIT, ws_perf_parser_task_pid (&r->p, (gint32) a),
                           (gint32) a, -1, NULL, time);
      return TRUE;

    case KIND_STATEDUMP:
      if (!read_number (r, info, payload, 0, &a) || !read_number (r, info, payload, 1, &b) ||
          (s = read_string (r, info, payload, 2)) == NULL)
        return FALSE;
      /* Not a fork: the thread exists already, and may have run in the
       * trace before the statedump reached it.  Its process and name. */
      if (a > 0)
        ws_perf_parser_task (&r->p, WS_PERF_TASK_COMM, (gint32) b, (gint32) a, -1, *s != '\0' ? s : ":0", time);
      return TRUE;

    default:
      return TRUE;
    }
}

/* An unsigned number whole (a flush completes at sector 2^64 - 1). */
static gboolean
field_unsigned (const bt_field *f,
                guint64        *value)
{
  gint64 v;

  if (bt_field_class_type_is (bt_field_get_class_type (f), BT_FIELD_CLASS_TYPE_UNSIGNED_INTEGER))
    *value = bt_field_integer_unsigned_get_value (f);
  else if (field_number (f, &v) && v >= 0)
    *value = (guint64) v;
  else
    return FALSE;
  return TRUE;
}

/*
 * block_rq_issue/complete stay markers and are also the trace's block
 * requests (ws-block-requests.h), as trace-cmd's are: `dev` is the
 * kernel's dev_t (major << 20 | minor), Waitscope's own device number;
 * `rwbs` LTTng's integer flags.  Fields that do not read leave only the
 * marker.
 */
static void
read_block (Reader         *r,
            EventInfo      *info,
            const bt_field *payload,
            const Record   *rec)
{
  guint64 v[5] = { 0 };   /* dev, sector, nr_sector, rwbs, bytes */
  guint n = info->kind == KIND_BLOCK_ISSUE ? 5 : 4;
  gchar op;

  for (guint i = 0; i < n; i++)
    if (payload == NULL || info->f[i] < 0 ||
        !field_unsigned (bt_field_structure_borrow_member_field_by_index_const (payload, (guint64) info->f[i]), &v[i]))
      return;
  if (v[0] > G_MAXUINT32 || v[2] > G_MAXUINT32 || v[4] > G_MAXUINT32)
    return;
  op = ws_block_op_from_lttng_rwbs (v[3]);
  if (info->kind == KIND_BLOCK_ISSUE)
    ws_block_requests_add_issue (ws_trace_ensure_block_requests (r->p.trace), rec->time, rec->thread,
                                 (guint32) v[0], op, v[1], (guint32) v[2], (guint32) v[4]);
  else
    ws_block_requests_add_complete (ws_trace_ensure_block_requests (r->p.trace), rec->time,
                                    (guint32) v[0], op, v[1], (guint32) v[2]);
}

/*
 * The event's call-stack contexts as frames in r->frames, leaf first:
 * the kernel's, then the user's, as perf prints a stack.  Returns how
 * many (0 without the contexts).
 */
static guint
read_stack (Reader         *r,
            EventInfo      *info,
            const bt_event *event)
{
  const bt_field *ctx = NULL;

  g_array_set_size (r->frames, 0);
  for (guint i = 0; i < G_N_ELEMENTS (stack_contexts); i++)
    {
      const bt_field *seq;
      guint64 n;

      if (info->ctx_stack[i] < 0)
        continue;
      if (ctx == NULL && (ctx = bt_event_borrow_common_context_field_const (event)) == NULL)
        break;
      seq = bt_field_structure_borrow_member_field_by_index_const (ctx, (guint64) info->ctx_stack[i]);
      if (!bt_field_class_type_is (bt_field_get_class_type (seq), BT_FIELD_CLASS_TYPE_ARRAY))
        continue;
      n = MIN (bt_field_array_get_length (seq), MAX_STACK_FRAMES);
      for (guint64 j = 0; j < n; j++)
        {
          const bt_field *e = bt_field_array_borrow_element_field_by_index_const (seq, j);
          guint64 address, width;
          WsFrameId frame;

          if (!bt_field_class_type_is (bt_field_get_class_type (e), BT_FIELD_CLASS_TYPE_UNSIGNED_INTEGER))
            break;
          address = bt_field_integer_unsigned_get_value (e);
          width = bt_field_class_integer_get_field_value_range (bt_field_borrow_class_const (e));
          /* LTTng marks a stack cut short with ULONG_MAX after its last frame. */
          if (address == 0 || address == (width >= 64 ? G_MAXUINT64 : (G_GUINT64_CONSTANT (1) << width) - 1))
            continue;
          frame = ws_ctf_symbols_frame (r->symbols, r->p.stacks, address, i == 0);
          g_array_append_val (r->frames, frame);
        }
    }
  return r->frames->len;
}

/* The interrupt context of @cpu as a one-frame or two-frame stack. */
static guint
interrupt_frames (Reader    *r,
                  CpuState  *c,
                  WsFrameId *frames)
{
  if (c->irq_depth > 0)
    {
      guint n = 0;

      if (c->irq_frame != 0)
        frames[n++] = c->irq_frame;
      frames[n++] = r->handle_irq;
      return n;
    }
  if (c->softirq >= 0 && c->softirq < (gint) G_N_ELEMENTS (softirq_handlers))
    {
      frames[0] = r->softirq_frames[c->softirq];
      return 1;
    }
  return 0;
}

static gboolean
read_event (Reader            *r,
            const bt_message  *msg)
{
  const bt_event *event = bt_message_event_borrow_event_const (msg);
  const bt_field *payload = bt_event_borrow_payload_field_const (event);
  const bt_clock_snapshot *clock;
  EventInfo *info;
  CpuState *c;
  WsFrameId frames[2];
  const WsFrameId *stack = frames;
  guint cpu, n_frames = 0, n_stack;
  gint64 ns = 0, a, b, state;
  gint32 tid, pid;
  Record rec;

  info = event_info (r, event);
  if (info->kind == KIND_OTHER)
    return TRUE;
  if ((c = cpu_state (r, event, &cpu)) == NULL)
    return FALSE;
  if (bt_message_event_borrow_stream_class_default_clock_class_const (msg) == NULL)
    return reader_fail (r, WS_ERROR_PARSE, _("%s has no timestamp: the trace has no clock"), info->name);
  clock = bt_message_event_borrow_default_clock_snapshot_const (msg);
  if (bt_clock_snapshot_get_ns_from_origin (clock, &ns) != BT_CLOCK_SNAPSHOT_GET_NS_FROM_ORIGIN_STATUS_OK ||
      ns < WS_TIME_MIN || ns > WS_TIME_MAX)
    return reader_fail (r, WS_ERROR_PARSE, _("%s: its timestamp is out of range"), info->name);

  tid = c->tid;
  if (info->ctx_tid >= 0)
    {
      const bt_field *ctx = bt_event_borrow_common_context_field_const (event);
      if (ctx != NULL && field_number (bt_field_structure_borrow_member_field_by_index_const (ctx, info->ctx_tid), &a))
        tid = (gint32) a;
    }
  /* A `pid` context names the process of every thread that runs, even
   * one forked before the trace began and missed by the statedump. */
  if (info->ctx_pid >= 0 && tid > 0)
    {
      const bt_field *ctx = bt_event_borrow_common_context_field_const (event);
      if (ctx != NULL && field_number (bt_field_structure_borrow_member_field_by_index_const (ctx, info->ctx_pid), &a) &&
          a > 0 && a <= G_MAXINT32 && ws_perf_parser_task_pid (&r->p, tid) != (gint32) a)
        ws_perf_parser_task_process (&r->p, tid, (gint32) a);
    }

  switch (info->kind)
    {
    case KIND_IRQ_ENTRY:
      {
        const char *name = info->f[1] >= 0 ? read_string (r, info, payload, 1) : NULL;

        c->irq_depth++;
        c->irq_frame = name != NULL && *name != '\0'
          ? ws_stack_table_intern_frame_len (r->p.stacks, name, strlen (name), "[irq]", strlen ("[irq]"))
          : 0;
      }
      return r->error == NULL;
    case KIND_IRQ_EXIT:
      if (c->irq_depth > 0)
        c->irq_depth--;
      return TRUE;
    case KIND_SOFTIRQ_RAISE:
      if (!read_number (r, info, payload, 0, &a))
        return FALSE;
      if (a >= 0 && a < (gint64) G_N_ELEMENTS (softirq_handlers))
        {
          if (c->irq_depth == 0 && c->softirq < 0)
            c->raised_by_thread |= 1u << a;
          else
            c->raised_by_thread &= ~(1u << a);
        }
      return TRUE;
    case KIND_SOFTIRQ_ENTRY:
      if (!read_number (r, info, payload, 0, &a))
        return FALSE;
      c->softirq = a >= 0 && a < (gint64) G_N_ELEMENTS (softirq_handlers) ? (gint) a : -1;
      /* Who readied a thread woken in a softirq: the perf importer's rule
       * (ws-perf-importer.c, interrupt_frames), without the stack that
       * tells it there.  Softirqs run by ksoftirqd are its own (a
       * heartbeat thread); a network softirq raised by a thread outside
       * interrupts (a loopback send) is run by that thread when it
       * re-enables bottom halves, so the sender readied the receiver;
       * the rest ran on interrupt exit, for the hardware. */
      c->softirq_in_thread = c->softirq >= 0 &&
        (c->ksoftirqd || ((c->softirq == SOFTIRQ_NET_TX || c->softirq == SOFTIRQ_NET_RX) &&
                          (c->raised_by_thread & (1u << c->softirq))));
      if (c->softirq >= 0)
        c->raised_by_thread &= ~(1u << c->softirq);
      return TRUE;
    case KIND_SOFTIRQ_EXIT:
      c->softirq = -1;
      return TRUE;
    case KIND_SYSCALL_ENTRY:
      if (tid > 0 && c->irq_depth == 0)
        g_hash_table_insert (r->syscalls, GINT_TO_POINTER (tid), GUINT_TO_POINTER (info->syscall + 1));
      return TRUE;
    case KIND_SYSCALL_EXIT:
      if (tid > 0 && c->irq_depth == 0)
        g_hash_table_remove (r->syscalls, GINT_TO_POINTER (tid));
      return TRUE;
    case KIND_STATEDUMP:
    case KIND_EXEC:
      return read_task (r, info, payload, ns);
    default:
      break;
    }

  memset (&rec, 0, sizeof rec);
  rec.time = ns;
  rec.stack = WS_STACK_EMPTY;
  rec.a = rec.b = WS_NONE;
  rec.name = WS_NONE;
  rec.cpu = (guint16) cpu;
  rec.type = info->type;

  if (info->kind == KIND_SWITCH)
    {
      const char *prev_comm, *next_comm;
      gpointer syscall;

      if ((prev_comm = read_string (r, info, payload, 0)) == NULL || !read_number (r, info, payload, 1, &a) ||
          !read_number (r, info, payload, 2, &state) || (next_comm = read_string (r, info, payload, 3)) == NULL ||
          !read_number (r, info, payload, 4, &b))
        return FALSE;
      pid = ws_perf_parser_task_pid (&r->p, (gint32) a);
      rec.thread = rec.a = ws_perf_parser_thread (&r->p, (gint32) a, pid);
      rec.b = ws_perf_parser_thread (&r->p, (gint32) b, ws_perf_parser_task_pid (&r->p, (gint32) b));
      rec.state = ws_perf_state_letter ((guint64) state);
      name_thread (r, rec.a, (gint32) a, prev_comm, ns, TRUE);
      name_thread (r, rec.b, (gint32) b, next_comm, ns, FALSE);
      /* The waiting "frame": the system call the thread is in. */
      if ((syscall = g_hash_table_lookup (r->syscalls, GINT_TO_POINTER ((gint32) a))) != NULL)
        frames[n_frames++] = GPOINTER_TO_UINT (syscall) - 1;
      c->tid = (gint32) b;
      c->ksoftirqd = g_str_has_prefix (next_comm, "ksoftirqd/");
    }
  else
    {
      /* A block request names the thread that issued it. */
      if (tid < 0 && info->kind == KIND_BLOCK_ISSUE && info->f[5] >= 0 && payload != NULL &&
          field_number (bt_field_structure_borrow_member_field_by_index_const (payload, (guint64) info->f[5]), &a) &&
          a >= 0 && a <= G_MAXINT32)
        tid = (gint32) a;
      /* An event on a CPU whose running thread is not known yet (before
       * its first switch in the trace) cannot name its thread. */
      if (tid < 0 && !(info->kind == KIND_WAKE && (c->irq_depth > 0 || c->softirq >= 0)))
        return read_task (r, info, payload, ns);
      pid = ws_perf_parser_task_pid (&r->p, MAX (tid, 0));
      rec.thread = ws_perf_parser_thread (&r->p, MAX (tid, 0), pid);
      if (info->kind == KIND_WAKE)
        {
          const char *comm;

          if ((comm = read_string (r, info, payload, 0)) == NULL || !read_number (r, info, payload, 1, &a))
            return FALSE;
          rec.a = ws_perf_parser_thread (&r->p, (gint32) a, ws_perf_parser_task_pid (&r->p, (gint32) a));
          name_thread (r, rec.a, (gint32) a, comm, ns, FALSE);
          if ((n_frames = interrupt_frames (r, c, frames)) > 0 && !(c->irq_depth == 0 && c->softirq_in_thread))
            rec.type |= REC_INTERRUPT;
        }
      else
        {
          if (!read_task (r, info, payload, ns))
            return FALSE;
          if (info->kind == KIND_BLOCK_ISSUE || info->kind == KIND_BLOCK_COMPLETE)
            read_block (r, info, payload, &rec);
          if ((rec.type & ~REC_INTERRUPT) == REC_MARKER || (rec.type & ~REC_INTERRUPT) == REC_SAMPLE)
            {
              /* sched_process_fork/exec/exit, block_rq_*: markers named
               * as perf's text names any other tracepoint. */
              rec.type = REC_MARKER;
              rec.a = info->marker_id;
            }
        }
    }
  /* The recorded call stack, when there is one, says more than the
   * system call or the interrupt (whose frames it holds). */
  if ((n_stack = read_stack (r, info, event)) > 0)
    {
      stack = &g_array_index (r->frames, WsFrameId, 0);
      n_frames = n_stack;
    }
  ws_perf_parser_add_record (&r->p, &rec, stack, n_frames);
  return TRUE;
}

/* One batch of messages from the graph (ws-ctf-graph.c). */
static gboolean
read_messages (const bt_message * const *msgs,
               guint64                   count,
               gpointer                  data)
{
  Reader *r = data;

  for (guint64 i = 0; i < count; i++)
    if (bt_message_get_type (msgs[i]) == BT_MESSAGE_TYPE_EVENT)
      {
        r->n_read++;
        if (!read_event (r, msgs[i]))
          return FALSE;
      }
  if (r->cancellable != NULL && g_cancellable_is_cancelled (r->cancellable))
    {
      g_set_error (&r->error, WS_ERROR, WS_ERROR_CANCELLED, "%s:1: %s", r->p.display_name, _("import cancelled"));
      return FALSE;
    }
  if (r->progress != NULL && (r->n_read & 0xffff) < count)
    ws_perf_report (r->progress, -1.0, _("Reading LTTng events"));
  return TRUE;
}

WsTrace *
ws_ctf_read (const char * const *dirs,
             const char         *display_name,
             WsStackTable       *stacks,
             WsProgressFunc      progress_func,
             gpointer            progress_data,
             GCancellable       *cancellable,
             GError            **error)
{
  g_autoptr(WsTrace) trace = NULL;
  g_autofree char *problem = NULL;
  Progress progress = { progress_func, progress_data, 0, -1.0, 0 };
  Reader r = { 0 };
  gboolean ok = FALSE;
  int how = 0;
  guint64 n_skimmed = 0;
  g_autofree char *logged = NULL;

  ws_perf_report (&progress, 0.0, _("Reading LTTng events"));
  switch (ws_ctf_graph_skim (dirs, cancellable, &how, &n_skimmed, &logged))
    {
    case WS_CTF_SKIM_OK:
      break;
    case WS_CTF_SKIM_CANCELLED:
      g_set_error (error, WS_ERROR, WS_ERROR_CANCELLED, "%s:1: %s", display_name, _("import cancelled"));
      return NULL;
    case WS_CTF_SKIM_STALLED:
      {
        g_autofree char *count = g_strdup_printf ("%" G_GUINT64_FORMAT, n_skimmed);

        g_set_error (error, WS_ERROR, WS_ERROR_PARSE,
                     _("%s:1: the LTTng trace is damaged: libbabeltrace2 stopped delivering events after "
                       "event %s and loops on it (stopped, in a process of its own)"), display_name, count);
        return NULL;
      }
    case WS_CTF_SKIM_CRASHED:
    default:
      {
        g_autofree char *how_text = how > 0 ? g_strdup (g_strsignal (how)) : g_strdup_printf ("exit %d", -how);
        g_autofree char *count = g_strdup_printf ("%" G_GUINT64_FORMAT, n_skimmed);

        g_set_error (error, WS_ERROR, WS_ERROR_PARSE,
                     _("%s:1: the LTTng trace is damaged: libbabeltrace2 crashed reading it (%s) after "
                       "event %s, in a process of its own"), display_name, how_text, count);
        return NULL;
      }
    }

  if ((r.symbols = ws_ctf_symbols_load (dirs, error)) == NULL)
    return NULL;
  trace = ws_trace_new (display_name, stacks);
  ws_perf_parser_init (&r.p, display_name, trace);
  r.frames = g_array_new (FALSE, FALSE, sizeof (WsFrameId));
  r.p.in_time_order = TRUE;   /* the muxer merges the CPUs by time */
  r.events = g_hash_table_new_full (NULL, NULL, NULL, event_info_free);
  r.stream_cpu = g_hash_table_new (NULL, NULL);
  r.syscalls = g_hash_table_new (NULL, NULL);
  r.cpus = g_array_new (FALSE, TRUE, sizeof (CpuState));
  r.handle_irq = ws_stack_table_intern_frame_len (r.p.stacks, "handle_irq_event", strlen ("handle_irq_event"),
                                                  "[kernel.kallsyms]", strlen ("[kernel.kallsyms]"));
  for (guint i = 0; i < G_N_ELEMENTS (softirq_handlers); i++)
    r.softirq_frames[i] = ws_stack_table_intern_frame_len (r.p.stacks, softirq_handlers[i], strlen (softirq_handlers[i]),
                                                           "[kernel.kallsyms]", strlen ("[kernel.kallsyms]"));
  r.progress = &progress;
  r.cancellable = cancellable;

  if (!ws_ctf_graph_run (dirs, BT_LOGGING_LEVEL_NONE, read_messages, &r, &problem))
    {
      if (r.error != NULL)
        g_propagate_error (error, g_steal_pointer (&r.error));
      else
        g_set_error (error, WS_ERROR, WS_ERROR_PARSE, _("%s:1: the LTTng trace is damaged: %s%s%s"), display_name,
                     problem, logged != NULL ? " — " : "", logged != NULL ? logged : "");
    }
  else if (r.p.records.n == 0)
    g_set_error (error, WS_ERROR, WS_ERROR_EMPTY,
                 _("%s:1: no scheduler events in this LTTng trace (record sched_switch and sched_waking)"), display_name);
  else if (ws_perf_derive (&r.p, &progress, cancellable, error))
    {
      ws_perf_apply_thread_info (&r.p);
      ok = TRUE;
    }

  g_clear_error (&r.error);
  ws_perf_parser_clear (&r.p);
  g_hash_table_unref (r.events);
  g_hash_table_unref (r.stream_cpu);
  g_hash_table_unref (r.syscalls);
  g_array_unref (r.cpus);
  g_array_unref (r.frames);
  ws_ctf_symbols_free (r.symbols);
  if (!ok)
    return NULL;
  ws_trace_finish (trace);
  ws_perf_report (&progress, 1.0, _("Reading LTTng events"));
  return g_steal_pointer (&trace);
}
