/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The libtracecmd side of the trace-cmd importer (ws-tracecmd-importer.c
 * says what is read and why it goes through the perf importer's passes).
 * libtracecmd merges the CPUs' ring buffers in time order; each event is
 * decoded here by its format (field offsets from the file's own event
 * descriptions, never assumed) into one perf Record.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <glib/gi18n-lib.h>
#include <trace-cmd.h>

#include "ws-block-requests.h"
#include "ws-perf-private.h"
#include "ws-library-child.h"
#include "ws-tracecmd-reader.h"

/* The kernel's clone flag that makes a thread, not a process. */
#define CLONE_THREAD_FLAG 0x00010000
/* trace_entry flags (include/linux/trace_events.h): in hard interrupt. */
#define TRACE_FLAG_HARDIRQ 0x08
/* Frames a stack holds at most; deeper ones are cut. */
#define MAX_FRAMES 256
/* More CPUs than any machine trace-cmd records has: a damaged header. */
#define MAX_CPUS 8192
/* Addresses whose frame is remembered (a direct-mapped cache): the same
 * few hundred return addresses make most kernel stacks. */
#define ADDR_CACHE_SIZE 4096

typedef struct {
  guint64   addr;
  WsFrameId frame;
} AddrFrame;

typedef enum {
  KIND_SWITCH,
  KIND_WAKE,       /* sched_waking, sched_wakeup, sched_wakeup_new */
  KIND_FORK,
  KIND_EXIT,
  KIND_NEWTASK,
  KIND_BLOCK_ISSUE,    /* block:block_rq_issue: a marker and a block request */
  KIND_BLOCK_COMPLETE, /* block:block_rq_complete: a marker and its completion */
  KIND_STACK,      /* ftrace:kernel_stack, the previous event's stack */
  KIND_SKIP,       /* ftrace:user_stack: addresses without their symbols */
  KIND_OTHER,      /* a marker, as perf makes of any other tracepoint */
} EventKind;

/* What an event id is, its fields looked up once. */
typedef struct {
  EventKind                kind;
  RecordType               type;
  guint32                  marker_id;
  char                    *name;      /* "sched:sched_switch", for errors */
  struct tep_format_field *f[5];
} EventInfo;

/* An event read, held until its CPU's next event (which may be its stack). */
typedef struct {
  Record    record;
  gboolean  held;
  guint     n_frames;
  WsFrameId frames[MAX_FRAMES];
} Held;

typedef struct {
  Parser                 p;
  struct tep_handle     *tep;
  int                    long_size;
  GHashTable            *events;       /* id -> EventInfo */
  GHashTable            *clone_flags;  /* child tid -> task_newtask's clone_flags */
  Held                  *held;         /* by CPU */
  int                    n_cpus;
  WsFrameId              unknown_frame;
  AddrFrame             *addr_cache;   /* ADDR_CACHE_SIZE; addr 0 = empty */
  Progress              *progress;
  GCancellable          *cancellable;
  guint64                n_read;
  guint64                missed;
  GError                *error;
} Reader;

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
             guint64     offset,
             const char *format,
             ...) G_GNUC_PRINTF (4, 5);

/* Errors name the byte where the event starts in the file. */
static gboolean
reader_fail (Reader     *r,
             WsError     code,
             guint64     offset,
             const char *format,
             ...)
{
  g_autofree char *message = NULL;
  g_autofree char *offset_text = g_strdup_printf ("%" G_GUINT64_FORMAT, offset);
  va_list args;

  va_start (args, format);
  message = g_strdup_vprintf (format, args);
  va_end (args);
  if (r->error == NULL)
    g_set_error (&r->error, WS_ERROR, code, _("%s:1: the event at byte %s: %s"),
                 r->p.display_name, offset_text, message);
  return FALSE;
}

static EventInfo *
event_info (Reader           *r,
            struct tep_event *event)
{
  EventInfo *info = g_hash_table_lookup (r->events, GINT_TO_POINTER (event->id));
  static const char * const names[][6] = {
    [KIND_SWITCH]  = { "sched_switch", "prev_comm", "prev_pid", "prev_state", "next_comm", "next_pid" },
    [KIND_WAKE]    = { NULL, "comm", "pid" },
    [KIND_FORK]    = { "sched_process_fork", "parent_pid", "child_pid" },
    [KIND_EXIT]    = { "sched_process_exit", "pid" },
    [KIND_NEWTASK] = { "task_newtask", "pid", "clone_flags" },
    [KIND_BLOCK_ISSUE]    = { "block_rq_issue", "dev", "sector", "nr_sector", "rwbs", "bytes" },
    [KIND_BLOCK_COMPLETE] = { "block_rq_complete", "dev", "sector", "nr_sector", "rwbs" },
    [KIND_STACK]   = { "kernel_stack", "caller" },
  };
  const char *system = event->system ? event->system : "";
  const char *name = event->name ? event->name : "";

  if (info != NULL)
    return info;

  info = g_new0 (EventInfo, 1);
  info->name = g_strdup_printf ("%s:%s", system, name);
  if (g_str_equal (system, "ftrace") && g_str_equal (name, "kernel_stack"))
    info->kind = KIND_STACK;
  else if (g_str_equal (system, "ftrace") && g_str_equal (name, "user_stack"))
    info->kind = KIND_SKIP;
  else if (g_str_equal (system, "sched") && g_str_equal (name, "sched_switch"))
    info->kind = KIND_SWITCH;
  else if (g_str_equal (system, "sched") &&
           (g_str_equal (name, "sched_waking") || g_str_equal (name, "sched_wakeup") ||
            g_str_equal (name, "sched_wakeup_new")))
    info->kind = KIND_WAKE;
  else if (g_str_equal (system, "sched") && g_str_equal (name, "sched_process_fork"))
    info->kind = KIND_FORK;
  else if (g_str_equal (system, "sched") && g_str_equal (name, "sched_process_exit"))
    info->kind = KIND_EXIT;
  else if (g_str_equal (system, "task") && g_str_equal (name, "task_newtask"))
    info->kind = KIND_NEWTASK;
  else if (g_str_equal (system, "block") && g_str_equal (name, "block_rq_issue"))
    info->kind = KIND_BLOCK_ISSUE;
  else if (g_str_equal (system, "block") && g_str_equal (name, "block_rq_complete"))
    info->kind = KIND_BLOCK_COMPLETE;
  else
    info->kind = KIND_OTHER;

  /* The perf importer's own name for the event: the same table decides
   * whether it is a switch, a wake-up or a marker. */
  info->type = ws_perf_parser_event_type (&r->p, info->name, strlen (info->name), &info->marker_id);

  if (info->kind < G_N_ELEMENTS (names))
    for (guint i = 1; i < 6 && names[info->kind][i] != NULL; i++)
      info->f[i - 1] = tep_find_field (event, names[info->kind][i]);
  g_hash_table_insert (r->events, GINT_TO_POINTER (event->id), info);
  return info;
}

/* Field @i of @info in @record, or an error naming it. */
static gboolean
read_number (Reader            *r,
             EventInfo         *info,
             guint              i,
             const char        *field_name,
             struct tep_record *record,
             guint64           *value)
{
  struct tep_format_field *f = info->f[i];
  unsigned long long v;

  if (f == NULL)
    return reader_fail (r, WS_ERROR_MISSING_FIELD, record->offset, _("%s without %s"), info->name, field_name);
  if (f->offset < 0 || f->size <= 0 || f->offset + f->size > record->size ||
      tep_read_number_field (f, record->data, &v) != 0)
    return reader_fail (r, WS_ERROR_TRUNCATED, record->offset, _("%s is shorter than its %s field"),
                        info->name, field_name);
  *value = v;
  return TRUE;
}

/* A char[16] comm field; NULL (and an error) if it is not in the record. */
static const char *
read_comm (Reader            *r,
           EventInfo         *info,
           guint              i,
           const char        *field_name,
           struct tep_record *record,
           gsize             *len)
{
  struct tep_format_field *f = info->f[i];
  const char *s;

  if (f == NULL)
    return reader_fail (r, WS_ERROR_MISSING_FIELD, record->offset, _("%s without %s"), info->name, field_name), NULL;
  if (f->offset < 0 || f->size <= 0 || f->offset + f->size > record->size)
    return reader_fail (r, WS_ERROR_TRUNCATED, record->offset, _("%s is shorter than its %s field"),
                        info->name, field_name), NULL;
  s = (const char *) record->data + f->offset;
  *len = strnlen (s, f->size);
  /* A name that is not UTF-8 (a damaged record) would make a name no
   * JSON output can hold: leave the thread unnamed. */
  if (!g_utf8_validate (s, *len, NULL))
    *len = 0;
  return s;
}

static void
release (Reader *r,
         int     cpu)
{
  Held *h = &r->held[cpu];

  if (!h->held)
    return;
  h->held = FALSE;
  ws_perf_parser_add_record (&r->p, &h->record, h->frames, h->n_frames);
}

/* An ftrace:kernel_stack event: the stack of @cpu's held event, leaf
 * first; the ftrace machinery's own frames (trace_event_raw_event_*,
 * which perf's stacks do not have) are left out. */
static gboolean
attach_stack (Reader            *r,
              EventInfo         *info,
              struct tep_record *record,
              int                cpu)
{
  Held *h = &r->held[cpu];
  struct tep_format_field *f = info->f[0];
  guint64 end_mark = r->long_size == 8 ? G_MAXUINT64 : G_MAXUINT32;
  gboolean leaf = TRUE;

  if (!h->held || h->n_frames > 0)
    return TRUE;   /* no event before it on this CPU in the file, or two stacks */
  if (f == NULL || f->offset < 0)
    return reader_fail (r, WS_ERROR_MISSING_FIELD, record->offset, _("%s without %s"), info->name, "caller");

  for (int off = f->offset; off + r->long_size <= record->size && h->n_frames < MAX_FRAMES;
       off += r->long_size)
    {
      guint64 addr = tep_read_number (r->tep, (const char *) record->data + off, r->long_size);
      AddrFrame *cached;

      if (addr == 0 || addr == end_mark)
        break;
      cached = &r->addr_cache[(addr >> 2) % ADDR_CACHE_SIZE];
      if (cached->addr != addr)
        {
          const char *function = tep_find_function (r->tep, addr);

          cached->addr = addr;
          cached->frame = function == NULL
            ? r->unknown_frame
            : ws_stack_table_intern_frame_len (r->p.stacks, function, strlen (function),
                                               "[kernel.kallsyms]", strlen ("[kernel.kallsyms]"));
        }
      if (leaf && g_str_has_prefix (ws_stack_table_get_frame (r->p.stacks, cached->frame)->function,
                                    "trace_event_raw_event_"))
        continue;
      leaf = FALSE;
      h->frames[h->n_frames++] = cached->frame;
    }
  return TRUE;
}

static gboolean
read_switch (Reader            *r,
             EventInfo         *info,
             struct tep_record *record,
             Record            *rec,
             gint32             tid,
             gint32             pid)
{
  guint64 prev_pid, next_pid, state;
  const char *prev_comm, *next_comm;
  gsize prev_len, next_len;

  if ((prev_comm = read_comm (r, info, 0, "prev_comm", record, &prev_len)) == NULL ||
      !read_number (r, info, 1, "prev_pid", record, &prev_pid) ||
      !read_number (r, info, 2, "prev_state", record, &state) ||
      (next_comm = read_comm (r, info, 3, "next_comm", record, &next_len)) == NULL ||
      !read_number (r, info, 4, "next_pid", record, &next_pid))
    return FALSE;

  ws_perf_parser_switch (&r->p, rec, tid, pid, (gint32) prev_pid, prev_comm, prev_len, state,
                         (gint32) next_pid, next_comm, next_len);
  return TRUE;
}

static gboolean
read_wake (Reader            *r,
           EventInfo         *info,
           struct tep_record *record,
           Record            *rec)
{
  guint64 target;
  const char *comm;
  gsize len;

  if ((comm = read_comm (r, info, 0, "comm", record, &len)) == NULL ||
      !read_number (r, info, 1, "pid", record, &target))
    return FALSE;
  ws_perf_parser_wake (&r->p, rec, (gint32) target, comm, len);
  return TRUE;
}

/*
 * Thread and process ids: task_newtask (in the parent, before the fork
 * event) says whether the new task is a thread of the parent's process;
 * sched_process_fork names the parent.  A parent whose own process is not
 * known is taken as its process's main thread, as a forking thread most
 * often is (a shell).
 */
static gboolean
read_task (Reader            *r,
           EventInfo         *info,
           struct tep_record *record,
           gint32             tid,
           gint64             time)
{
  guint64 a, b;

  switch (info->kind)
    {
    case KIND_NEWTASK:
      if (!read_number (r, info, 0, "pid", record, &a) ||
          !read_number (r, info, 1, "clone_flags", record, &b))
        return FALSE;
      g_hash_table_insert (r->clone_flags, GINT_TO_POINTER ((gint32) a), GSIZE_TO_POINTER ((gsize) b));
      return TRUE;

    case KIND_FORK:
      {
        gint32 parent, child, parent_pid, child_pid = -1;
        gpointer flags;

        if (!read_number (r, info, 0, "parent_pid", record, &a) ||
            !read_number (r, info, 1, "child_pid", record, &b))
          return FALSE;
        parent = (gint32) a;
        child = (gint32) b;
        parent_pid = ws_perf_parser_task_pid (&r->p, parent);
        if (parent_pid < 0)
          parent_pid = parent;
        if (g_hash_table_lookup_extended (r->clone_flags, GINT_TO_POINTER (child), NULL, &flags))
          {
            child_pid = (GPOINTER_TO_SIZE (flags) & CLONE_THREAD_FLAG) ? parent_pid : child;
            g_hash_table_remove (r->clone_flags, GINT_TO_POINTER (child));
          }
        ws_perf_parser_task (&r->p, WS_PERF_TASK_FORK, child_pid, child, parent_pid, NULL, time);
      }
      return TRUE;

    case KIND_EXIT:
      if (!read_number (r, info, 0, "pid", record, &a))
        return FALSE;
      ws_perf_parser_task (&r->p, WS_PERF_TASK_EXIT, ws_perf_parser_task_pid (&r->p, (gint32) a),
                           (gint32) a, -1, NULL, time);
      return TRUE;

    default:
      return TRUE;
    }
}

/* Field @i as a number if the record has it whole. */
static gboolean
peek_number (EventInfo         *info,
             guint              i,
             struct tep_record *record,
             guint64           *value)
{
  struct tep_format_field *f = info->f[i];
  unsigned long long v;

  if (f == NULL || f->offset < 0 || f->size <= 0 || f->offset + f->size > record->size ||
      tep_read_number_field (f, record->data, &v) != 0)
    return FALSE;
  *value = v;
  return TRUE;
}

/*
 * The block layer's request tracepoints stay markers, and are also the
 * trace's block requests (ws-block-requests.h), as in perf's text.  The
 * dev field is the kernel's dev_t (major << 20 | minor), Waitscope's own
 * device number.  Fields that do not read leave only the marker.
 */
static void
read_block (Reader            *r,
            EventInfo         *info,
            struct tep_record *record,
            const Record      *rec)
{
  struct tep_format_field *rwbs = info->f[3];
  guint64 device, sector, n_sectors, bytes = 0;
  gchar op;

  if (!peek_number (info, 0, record, &device) || !peek_number (info, 1, record, &sector) ||
      !peek_number (info, 2, record, &n_sectors) || n_sectors > G_MAXUINT32 || device > G_MAXUINT32 ||
      rwbs == NULL || rwbs->offset < 0 || rwbs->size <= 0 || rwbs->offset + rwbs->size > record->size ||
      (info->kind == KIND_BLOCK_ISSUE && (!peek_number (info, 4, record, &bytes) || bytes > G_MAXUINT32)))
    return;
  op = ws_block_op_from_rwbs ((const char *) record->data + rwbs->offset,
                              strnlen ((const char *) record->data + rwbs->offset, rwbs->size));
  if (info->kind == KIND_BLOCK_ISSUE)
    ws_block_requests_add_issue (ws_trace_ensure_block_requests (r->p.trace), rec->time, rec->thread,
                                 (guint32) device, op, sector, (guint32) n_sectors, (guint32) bytes);
  else
    ws_block_requests_add_complete (ws_trace_ensure_block_requests (r->p.trace), rec->time,
                                    (guint32) device, op, sector, (guint32) n_sectors);
}

static int
read_event (struct tracecmd_input *handle,
            struct tep_record     *record,
            int                    cpu,
            void                  *data)
{
  Reader *r = data;
  struct tep_event *event;
  EventInfo *info;
  Record rec;
  gint32 tid, pid;

  if ((++r->n_read & 0xffff) == 0)
    {
      if (g_cancellable_is_cancelled (r->cancellable))
        {
          g_set_error (&r->error, WS_ERROR, WS_ERROR_CANCELLED, "%s:1: %s", r->p.display_name,
                       _("import cancelled"));
          return 1;
        }
      ws_perf_report (r->progress, -1.0, _("Reading trace-cmd events"));
    }
  if (cpu < 0 || cpu >= r->n_cpus || record->data == NULL || record->size <= 0)
    return reader_fail (r, WS_ERROR_PARSE, record->offset, _("an event outside of the file's CPUs")), 1;
  if (record->missed_events != 0)
    r->missed++;

  event = tep_find_event_by_record (r->tep, record);
  if (event == NULL)
    return reader_fail (r, WS_ERROR_PARSE, record->offset,
                        _("an event of a type the file does not describe (damaged data)")), 1;
  info = event_info (r, event);
  if (info->kind == KIND_STACK)
    return attach_stack (r, info, record, cpu) ? 0 : 1;
  if (info->kind == KIND_SKIP)
    return 0;

  release (r, cpu);
  tid = tep_data_pid (r->tep, record);
  pid = ws_perf_parser_task_pid (&r->p, tid);

  memset (&rec, 0, sizeof rec);
  rec.time = (gint64) MIN (record->ts, (unsigned long long) WS_TIME_MAX);
  rec.thread = ws_perf_parser_thread (&r->p, tid, pid);
  rec.stack = WS_STACK_EMPTY;
  rec.a = rec.b = WS_NONE;
  rec.name = WS_NONE;
  rec.cpu = (guint16) cpu;
  rec.type = info->type;

  switch (info->kind)
    {
    case KIND_SWITCH:
      if (!read_switch (r, info, record, &rec, tid, pid))
        return 1;
      break;
    case KIND_WAKE:
      if (!read_wake (r, info, record, &rec))
        return 1;
      if (tep_data_flags (r->tep, record) & TRACE_FLAG_HARDIRQ)
        rec.type |= REC_INTERRUPT;
      break;
    case KIND_BLOCK_ISSUE:
    case KIND_BLOCK_COMPLETE:
      read_block (r, info, record, &rec);
      break;
    default:
      if (!read_task (r, info, record, tid, rec.time))
        return 1;
      break;
    }
  if ((rec.type & ~REC_INTERRUPT) == REC_MARKER || (rec.type & ~REC_INTERRUPT) == REC_SAMPLE)
    {
      /* Not a scheduler event: a marker named system:event, as perf's
       * text names any other tracepoint. */
      rec.type = REC_MARKER;
      rec.a = info->marker_id;
    }
  r->held[cpu].record = rec;
  r->held[cpu].held = TRUE;
  r->held[cpu].n_frames = 0;
  return 0;
}

/*
 * The fixed start of the file, checked before libtracecmd sees it, so that
 * the commonest damage is named with its place: magic (10 bytes), the
 * version as text up to a NUL, the byte order, the size of a long, the
 * page size.
 */
static gboolean
check_head (const char  *path,
            const char  *display_name,
            goffset     *file_size,
            GError     **error)
{
  g_autoptr(GMappedFile) mapped = g_mapped_file_new (path, FALSE, NULL);
  const guint8 *s;
  gsize len, v;
  guint32 page_size;
  const char *problem = NULL;
  gsize place = 0;

  if (mapped == NULL)
    {
      g_set_error (error, WS_ERROR, WS_ERROR_IO, "%s:1: %s", display_name, g_strerror (errno));
      return FALSE;
    }
  s = (const guint8 *) g_mapped_file_get_contents (mapped);
  len = g_mapped_file_get_length (mapped);
  *file_size = len;
  for (v = 10; v < len && v < 26 && s[v] != 0; v++)
    ;
  if (v >= len || v + 7 > len)
    problem = _("the file ends inside its first header: it was cut short"), place = len;
  else if (v == 10 || s[v] != 0 || !(g_ascii_isdigit (s[10])))
    problem = _("the file format version is not a number"), place = 10;
  else if (!(v == 11 && (s[10] == '6' || s[10] == '7')))
    problem = _("a trace-cmd file version this build does not read (it reads versions 6 and 7)"), place = 10;
  else if (s[v + 1] > 1)
    problem = _("the byte order is neither 0 (little endian) nor 1 (big endian)"), place = v + 1;
  else if (s[v + 2] != 4 && s[v + 2] != 8)
    problem = _("the size of a long is neither 4 nor 8"), place = v + 2;
  else
    {
      memcpy (&page_size, s + v + 3, 4);
      if (s[v + 1] != (G_BYTE_ORDER == G_BIG_ENDIAN))
        page_size = GUINT32_SWAP_LE_BE (page_size);
      if (page_size < 1024 || page_size > 1024 * 1024 || (page_size & (page_size - 1)) != 0)
        problem = _("the page size is not a power of two between 1 KiB and 1 MiB"), place = v + 3;
    }
  if (problem != NULL)
    {
      g_autofree char *place_text = g_strdup_printf ("%" G_GSIZE_FORMAT, place);
      g_set_error (error, WS_ERROR, len < 16 ? WS_ERROR_TRUNCATED : WS_ERROR_PARSE,
                   _("%s:1: byte %s of the trace-cmd file: %s"), display_name, place_text, problem);
      return FALSE;
    }
  return TRUE;
}

static int
skim_event (struct tracecmd_input *handle,
            struct tep_record     *record,
            int                    cpu,
            void                  *data)
{
  return tep_find_event_by_record (tracecmd_get_tep (handle), record) == NULL;
}

typedef enum {
  SKIM_OK,
  SKIM_CRASHED,
  SKIM_CANCELLED,
} SkimResult;

/*
 * libtracecmd trusts a file more than it should: a damaged one can make it
 * dereference NULL (fuzz-tracecmd found tracecmd_open_fd's error path
 * closing a half-made handle).  So a child process reads the file through
 * it first, every event, and only a file the child read without crashing
 * is read here; the child touches nothing but libtracecmd and ends with
 * _exit(), so forking from a worker thread is safe with glibc's malloc.
 * It costs a second opening of the file.
 */
static SkimResult
skim_in_child (const char   *path,
               GCancellable *cancellable,
               int          *how)
{
  pid_t pid = fork ();
  int status = 0;

  if (pid < 0)
    return SKIM_OK;   /* no child to be had: read it here */
  if (pid == 0)
    {
      struct tracecmd_input *handle;

      /* libtracecmd's own complaints ("Can not mmap file") say nothing
       * the parent's error will not. */
      ws_library_child_enter (-1);
      handle = tracecmd_open (path, TRACECMD_FL_LOAD_NO_PLUGINS | TRACECMD_FL_LOAD_NO_SYSTEM_PLUGINS);

      if (handle != NULL)
        {
          tracecmd_iterate_events (handle, NULL, 0, skim_event, NULL);
          tracecmd_close (handle);
        }
      _exit (0);
    }
  for (;;)
    {
      pid_t done = waitpid (pid, &status, WNOHANG);

      if (done == pid)
        break;
      if (done < 0 && errno != EINTR)
        return SKIM_OK;
      if (g_cancellable_is_cancelled (cancellable))
        {
          kill (pid, SIGKILL);
          waitpid (pid, &status, 0);
          return SKIM_CANCELLED;
        }
      g_usleep (done == 0 ? 2000 : 0);
    }
  if (WIFEXITED (status) && WEXITSTATUS (status) == 0)
    return SKIM_OK;
  *how = WIFSIGNALED (status) ? WTERMSIG (status) : -WEXITSTATUS (status);
  return SKIM_CRASHED;
}

static void
quiet_libraries (void)
{
  static gsize done = 0;

  /* libtracecmd and libtraceevent print their complaints on stderr; the
   * error Waitscope reports says what went wrong instead. */
  if (g_once_init_enter (&done))
    {
      tracecmd_set_loglevel (TEP_LOG_NONE);
      tep_set_loglevel (TEP_LOG_NONE);
      g_once_init_leave (&done, 1);
    }
}

WsTrace *
ws_tracecmd_read (const char     *path,
                  const char     *display_name,
                  WsStackTable   *stacks,
                  WsProgressFunc  progress_func,
                  gpointer        progress_data,
                  GCancellable   *cancellable,
                  GError        **error)
{
  g_autoptr(WsTrace) trace = NULL;
  struct tracecmd_input *handle;
  Progress progress = { progress_func, progress_data, 0, -1.0, 0 };
  Reader r = { 0 };
  gboolean ok = FALSE;

  goffset file_size = 0;
  int how = 0;

  quiet_libraries ();
  ws_perf_report (&progress, 0.0, _("Reading trace-cmd events"));
  if (!check_head (path, display_name, &file_size, error))
    return NULL;

  switch (skim_in_child (path, cancellable, &how))
    {
    case SKIM_OK:
      break;
    case SKIM_CANCELLED:
      g_set_error (error, WS_ERROR, WS_ERROR_CANCELLED, "%s:1: %s", display_name, _("import cancelled"));
      return NULL;
    case SKIM_CRASHED:
    default:
      {
        g_autofree char *size_text = g_strdup_printf ("%" G_GOFFSET_FORMAT, file_size);
        g_autofree char *how_text = how > 0 ? g_strdup (g_strsignal (how)) : g_strdup_printf ("exit %d", -how);

        g_set_error (error, WS_ERROR, WS_ERROR_PARSE,
                     _("%s:1: the trace-cmd file is damaged: libtracecmd crashed reading it (%s), in a "
                       "process of its own (the file is %s bytes)"),
                     display_name, how_text, size_text);
        return NULL;
      }
    }

  handle = tracecmd_open (path, TRACECMD_FL_LOAD_NO_PLUGINS | TRACECMD_FL_LOAD_NO_SYSTEM_PLUGINS);
  if (handle == NULL)
    {
      g_autofree char *size_text = g_strdup_printf ("%" G_GOFFSET_FORMAT, file_size);
      /* libtracecmd does not say where it stopped; the size helps tell a
       * file cut short from a copy that is whole. */
      g_set_error (error, WS_ERROR, WS_ERROR_PARSE,
                   _("%s:1: the trace-cmd file is damaged or cut short: libtracecmd cannot read its "
                     "headers, event formats or CPU data sections (the file is %s bytes)"),
                   display_name, size_text);
      return NULL;
    }

  if (tep_get_cpus (tracecmd_get_tep (handle)) > MAX_CPUS)
    {
      g_autofree char *cpus = g_strdup_printf ("%d", tep_get_cpus (tracecmd_get_tep (handle)));
      g_set_error (error, WS_ERROR, WS_ERROR_PARSE,
                   _("%s:1: the trace-cmd file is damaged: its header says it holds %s CPUs"),
                   display_name, cpus);
      tracecmd_close (handle);
      return NULL;
    }

  trace = ws_trace_new (display_name, stacks);
  ws_perf_parser_init (&r.p, display_name, trace);
  r.p.in_time_order = TRUE;   /* libtracecmd merges the CPUs by time */
  r.tep = tracecmd_get_tep (handle);
  r.long_size = tep_get_long_size (r.tep) == 4 ? 4 : 8;
  r.n_cpus = MAX (tep_get_cpus (r.tep), 1);
  r.held = g_new0 (Held, r.n_cpus);
  r.events = g_hash_table_new_full (NULL, NULL, NULL, event_info_free);
  r.clone_flags = g_hash_table_new (NULL, NULL);
  r.addr_cache = g_new0 (AddrFrame, ADDR_CACHE_SIZE);
  r.unknown_frame = ws_stack_table_intern_frame_len (r.p.stacks, "[unknown]", strlen ("[unknown]"),
                                                     "[kernel.kallsyms]", strlen ("[kernel.kallsyms]"));
  r.progress = &progress;
  r.cancellable = cancellable;

  tracecmd_iterate_events (handle, NULL, 0, read_event, &r);
  for (int cpu = 0; cpu < r.n_cpus; cpu++)
    release (&r, cpu);

  if (r.error != NULL)
    g_propagate_error (error, g_steal_pointer (&r.error));
  else if (r.p.records.n == 0)
    g_set_error (error, WS_ERROR, WS_ERROR_EMPTY, _("%s:1: no events in this trace-cmd file"), display_name);
  else if (ws_perf_derive (&r.p, &progress, cancellable, error))
    {
      ws_perf_apply_thread_info (&r.p);
      ok = TRUE;
    }
  if (r.missed > 0)
    g_debug ("%s: the ring buffer dropped events %" G_GUINT64_FORMAT " times", display_name, r.missed);

  ws_perf_parser_clear (&r.p);
  g_hash_table_unref (r.events);
  g_hash_table_unref (r.clone_flags);
  g_free (r.held);
  g_free (r.addr_cache);
  tracecmd_close (handle);
  if (!ok)
    return NULL;
  ws_trace_finish (trace);
  ws_perf_report (&progress, 1.0, _("Reading trace-cmd events"));
  return g_steal_pointer (&trace);
}
