/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The perf importer: `perf script` text (plain or gzip) or a perf.data file
 * (through `perf script`), turned into the paper's events.
 *
 * It works in two passes.  The first reads the text in large buffers with a
 * hand-written parser (memchr for lines, numbers parsed by hand, frames
 * interned straight from the byte slices) and keeps one 32-byte record per
 * event header.  perf's own output is sorted by time, but lines from
 * different CPUs may come out of order in other producers, so the records
 * are stable-sorted by time (when needed) before the second pass derives,
 * thread by thread, the waits, wake-ups, preemptions and on-CPU spans
 * (DESIGN.md, "From Linux perf to the paper's events").  The second pass
 * emits events in time order, so ws_trace_finish() has nothing to sort.
 *
 * Truncated input: a file that ends inside a stack (the common way a
 * `perf script | gzip` pipe gets cut) keeps its last event with the frames
 * read so far; a file that ends inside an event header line is an error
 * (%WS_ERROR_TRUNCATED), since that event cannot be known; a gzip stream cut
 * short is always an error, naming the line reached.
 */
#include "config.h"

#include <glib/gi18n-lib.h>

#include "ws-importer.h"
#include "ws-perf-private.h"

/*
 * A wake-up done from interrupt context carries the comm/tid of whatever the
 * interrupt happened to interrupt (often swapper, sometimes an unrelated
 * thread).  Such a wake-up has no readier thread to follow: it is a timer or
 * a device (the papers' hardware service / "false run").  The kernel part of
 * the waker's stack shows it; these are the frames that prove it.  Matched
 * against the whole function name, or a prefix where marked, ignoring the
 * compiler's ".constprop.0"/".isra.0"/".cold" suffixes.
 */
typedef struct {
  const char *name;
  gboolean    prefix;
} InterruptFrame;

static const InterruptFrame interrupt_frames[] = {
  /* hrtimer expiry: nanosleep/poll/epoll timeouts (hrtimer_wakeup) */
  { "hrtimer_interrupt", FALSE },
  { "__hrtimer_run_queues", FALSE },
  /* x86 system-vector entry: local APIC timer, reschedule and
   * call-function IPIs, ... (asm_sysvec_apic_timer_interrupt and friends) */
  { "asm_sysvec_", TRUE },
  { "__sysvec_", TRUE },
  /* device interrupts (virtio-blk, network) */
  { "asm_common_interrupt", FALSE },
  { "common_interrupt", FALSE },
  /* softirqs run on interrupt exit: timer wheel, RCU, block and network
   * completions -- work done on behalf of hardware.  The softirq frames
   * themselves (handle_softirqs, __do_softirq) are not listed: a thread
   * that re-enables bottom halves runs the pending softirqs in its own
   * context (do_softirq from __local_bh_enable_ip), and a TCP loopback
   * send delivers the packet and wakes the receiver there -- the sender
   * readied it.  Softirqs run by ksoftirqd are a heartbeat thread's. */
  { "irq_exit_rcu", FALSE },
  { "__irq_exit_rcu", FALSE },
  /* block I/O completion: the disk, not a thread, ended the D-state wait */
  { "blk_mq_end_request", FALSE },
  { "blk_complete_reqs", FALSE },
  /* a remote wake-up queued by another CPU and run from the IPI handler:
   * the real waker's sched_waking is on the other CPU */
  { "sched_ttwu_pending", FALSE },
  { "__flush_smp_call_function_queue", FALSE },
  /* ITIMER_REAL expiry (SIGALRM: PostgreSQL's statement/lock timeouts) */
  { "it_real_fn", FALSE },
};

/**
 * ws_perf_importer_is_interrupt_frame:
 * @function: a function name from a kernel stack
 *
 * Returns: whether a wake-up whose stack holds @function was done from
 *   interrupt context (timer, device, IPI) rather than by a thread
 */
gboolean
ws_perf_importer_is_interrupt_frame (const char *function)
{
  g_return_val_if_fail (function != NULL, FALSE);

  for (guint i = 0; i < G_N_ELEMENTS (interrupt_frames); i++)
    {
      const InterruptFrame *f = &interrupt_frames[i];
      gsize len = strlen (f->name);

      if (strncmp (function, f->name, len) != 0)
        continue;
      if (f->prefix || function[len] == '\0' || function[len] == '.')
        return TRUE;
    }
  return FALSE;
}
G_GNUC_PRINTF (5, 6)
gboolean
ws_perf_set_error (GError     **error,
           const char  *file,
           guint64      line,
           WsError      code,
           const char  *format,
           ...)
{
  g_autofree char *message = NULL;
  va_list args;

  va_start (args, format);
  message = g_strdup_vprintf (format, args);
  va_end (args);

  g_set_error (error, WS_ERROR, code, "%s:%" G_GUINT64_FORMAT ": %s",
               file, MAX (line, 1), message);
  return FALSE;
}


WsTrace *
ws_perf_load_source (const char        *display_name,
             const char        *path,
             GInputStream      *stream,
             guint64            total_size,
             WsStackTable      *stacks,
             WsPerfImportStats *stats,
             WsProgressFunc     progress_func,
             gpointer           progress_data,
             GCancellable      *cancellable,
             GError           **error)
{
  g_autoptr(WsTrace) trace = NULL;
  g_autoptr(GError) local_error = NULL;
  Source src = { 0 };
  Parser p;
  Progress progress = { progress_func, progress_data, total_size, -1.0, 0 };
  gsize head_len = 0;
  gboolean ok = FALSE;

  src.stream = stream;
  src.head = g_malloc (HEAD_SIZE);
  if (!g_input_stream_read_all (stream, src.head, HEAD_SIZE, &head_len, cancellable, &local_error))
    {
      WsError code = g_error_matches (local_error, G_IO_ERROR, G_IO_ERROR_CANCELLED)
                     ? WS_ERROR_CANCELLED : WS_ERROR_IO;
      g_set_error (error, WS_ERROR, code, "%s:1: %s", display_name, local_error->message);
      ws_perf_source_clear (&src);
      return NULL;
    }
  src.head_len = head_len;
  src.input_bytes = head_len;
  if (head_len < HEAD_SIZE)
    src.eof = TRUE;

  if (head_len == 0)
    {
      ws_perf_set_error (error, display_name, 1, WS_ERROR_EMPTY, _("the file is empty"));
      ws_perf_source_clear (&src);
      return NULL;
    }

  if (ws_perf_is_perf_data (src.head, head_len))
    {
      WsTrace *result;

      if (path != NULL)
        {
          result = ws_perf_script_load (display_name, path, stacks, stats, progress_func, progress_data,
                                        cancellable, error);
          if (result != NULL)
            ws_perf_data_read_record_command (result, path);
        }
      else
        result = ws_perf_script_load_stream (display_name, &src, stacks, stats, progress_func,
                                        progress_data, cancellable, error);
      ws_perf_source_clear (&src);
      return result;
    }

  if (head_len >= 2 && src.head[0] == 0x1f && src.head[1] == 0x8b)
    {
      src.gzip = TRUE;
      src.zbuf = g_malloc (ZBUF_SIZE);
      /* 15 + 32: zlib window, gzip or zlib header detected automatically. */
      if (inflateInit2 (&src.z, 15 + 32) != Z_OK)
        {
          ws_perf_set_error (error, display_name, 1, WS_ERROR_IO, _("cannot start gzip decompression"));
          ws_perf_source_clear (&src);
          return NULL;
        }
      src.z_ready = TRUE;
    }

  trace = ws_trace_new (path ? path : display_name, stacks);
  ws_perf_parser_init (&p, display_name, trace);

  if (ws_perf_parse_source (&p, &src, &progress, cancellable, error))
    {
      if (p.stats.text_bytes == 0)
        ws_perf_set_error (error, display_name, 1, WS_ERROR_EMPTY, _("the file is empty"));
      else if (p.records.n == 0)
        ws_perf_set_error (error, display_name, p.line_no, WS_ERROR_EMPTY,
                   _("no perf events in this file"));
      else if (ws_perf_derive (&p, &progress, cancellable, error))
        {
          ws_perf_apply_thread_info (&p);
          ok = TRUE;
        }
    }

  if (stats != NULL)
    *stats = p.stats;
  ws_perf_parser_clear (&p);
  ws_perf_source_clear (&src);

  if (!ok)
    return NULL;

  ws_trace_finish (trace);
  ws_perf_report (&progress, 1.0, _("Reading perf events"));
  return g_steal_pointer (&trace);
}

/**
 * ws_perf_importer_load_with_stats:
 * @path: a `perf script` text file (plain or gzip) or a perf.data file
 * @stacks: (nullable): a stack table to share with other traces
 * @stats: (out) (optional): what the import saw
 * @progress: (nullable): progress callback
 * @cancellable: (nullable): checked every few megabytes
 *
 * Returns: (transfer full): the trace, or %NULL with @error set to a
 *   %WS_ERROR whose message starts with "PATH:LINE: "
 */
WsTrace *
ws_perf_importer_load_with_stats (const char         *path,
                                  WsStackTable       *stacks,
                                  WsPerfImportStats  *stats,
                                  WsProgressFunc      progress,
                                  gpointer            progress_data,
                                  GCancellable       *cancellable,
                                  GError            **error)
{
  g_autoptr(GFile) file = NULL;
  g_autoptr(GFileInputStream) stream = NULL;
  g_autoptr(GFileInfo) info = NULL;
  g_autoptr(GError) local_error = NULL;
  guint64 size = 0;

  g_return_val_if_fail (path != NULL, NULL);
  g_return_val_if_fail (stacks == NULL || WS_IS_STACK_TABLE (stacks), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (stats != NULL)
    memset (stats, 0, sizeof *stats);

  file = g_file_new_for_path (path);
  stream = g_file_read (file, cancellable, &local_error);
  if (stream == NULL)
    {
      WsError code = g_error_matches (local_error, G_IO_ERROR, G_IO_ERROR_CANCELLED)
                     ? WS_ERROR_CANCELLED : WS_ERROR_IO;
      g_set_error (error, WS_ERROR, code, "%s:1: %s", path, local_error->message);
      return NULL;
    }
  info = g_file_input_stream_query_info (stream, G_FILE_ATTRIBUTE_STANDARD_SIZE, NULL, NULL);
  if (info != NULL)
    size = g_file_info_get_size (info);

  return ws_perf_load_source (path, path, G_INPUT_STREAM (stream), size, stacks, stats,
                      progress, progress_data, cancellable, error);
}

/**
 * ws_perf_importer_load:
 * @path: a `perf script` text file (plain or gzip) or a perf.data file
 * @stacks: (nullable): a stack table to share with other traces, or %NULL
 *
 * Reads a perf recording and derives the paper's events: waits (with their
 * readiers), wake-ups, preemptions, on-CPU spans, CPU samples and markers.
 *
 * Returns: (transfer full): the trace, or %NULL with @error set
 */
WsTrace *
ws_perf_importer_load (const char     *path,
                       WsStackTable   *stacks,
                       WsProgressFunc  progress,
                       gpointer        progress_data,
                       GCancellable   *cancellable,
                       GError        **error)
{
  return ws_perf_importer_load_with_stats (path, stacks, NULL, progress, progress_data,
                                           cancellable, error);
}

/**
 * ws_perf_importer_load_stream:
 * @stream: `perf script` text (plain or gzip), or perf.data bytes
 * @display_name: names the input in error messages ("-" or "stdin")
 *
 * As ws_perf_importer_load(), from a stream (stdin, a pipe from perf
 * script).  A perf.data stream is copied to a temporary file for perf.
 */
WsTrace *
ws_perf_importer_load_stream (GInputStream   *stream,
                              const char     *display_name,
                              WsStackTable   *stacks,
                              WsProgressFunc  progress,
                              gpointer        progress_data,
                              GCancellable   *cancellable,
                              GError        **error)
{
  g_return_val_if_fail (G_IS_INPUT_STREAM (stream), NULL);
  g_return_val_if_fail (stacks == NULL || WS_IS_STACK_TABLE (stacks), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  return ws_perf_load_source (display_name ? display_name : "stdin", NULL, stream, 0, stacks, NULL,
                      progress, progress_data, cancellable, error);
}

/**
 * ws_perf_importer_sniff:
 * @head: the first bytes of a file (a few kilobytes are plenty)
 *
 * Returns: whether the bytes look like `perf script` text (plain or gzip)
 *   or a perf.data file, so that a generic loader can dispatch here
 */
gboolean
ws_perf_importer_sniff (const guint8 *head,
                        gsize         len)
{
  g_autofree guint8 *text = NULL;
  const char *s, *end, *nl;

  g_return_val_if_fail (head != NULL || len == 0, FALSE);

  if (ws_perf_is_perf_data (head, len))
    return TRUE;

  if (len >= 2 && head[0] == 0x1f && head[1] == 0x8b)
    {
      z_stream z = { 0 };
      gsize out_len;

      text = g_malloc (HEAD_SIZE);
      if (inflateInit2 (&z, 15 + 32) != Z_OK)
        return FALSE;
      z.next_in = (guint8 *) head;
      z.avail_in = len;
      z.next_out = text;
      z.avail_out = HEAD_SIZE;
      inflate (&z, Z_SYNC_FLUSH);   /* a partial head gives partial text */
      out_len = HEAD_SIZE - z.avail_out;
      inflateEnd (&z);
      head = text;
      len = out_len;
    }

  if (memchr (head, '\0', len) != NULL)
    return FALSE;

  /* The first line that is not blank or a "# ..." comment (perf script
   * --header) must be an event header. */
  s = (const char *) head;
  end = s + len;
  for (;;)
    {
      Header h;

      while (s < end && (*s == '\n' || *s == '\r'))
        s++;
      if (s >= end)
        return FALSE;
      nl = memchr (s, '\n', end - s);
      if (*s != '#')
        return ws_perf_parse_header (s, nl ? nl : end, &h);
      if (nl == NULL)
        return FALSE;
      s = nl + 1;
    }
}

static WsTrace *
perf_load_stream (GInputStream   *stream,
                  const char     *display_name,
                  gboolean        compressed,
                  WsStackTable   *stacks,
                  WsProgressFunc  progress,
                  gpointer        progress_data,
                  GCancellable   *cancellable,
                  GError        **error)
{
  /* It inflates gzip itself, and copies perf.data to a file for perf. */
  return ws_perf_importer_load_stream (stream, display_name, stacks, progress, progress_data,
                                       cancellable, error);
}

static const char * const perf_patterns[] = {
  "*.perf.txt", "*.perf.txt.gz", "*.txt", "*.txt.gz", "*.data", "*.perf", NULL
};

const WsImporter ws_perf_importer = {
  .id = "perf",
  .name = N_("perf script text or perf.data"),
  .patterns = perf_patterns,
  .sniff = ws_perf_importer_sniff,
  .load_file = ws_perf_importer_load,
  .load_stream = perf_load_stream,
};
