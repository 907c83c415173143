/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Opening a trace whatever its format: the first bytes (looked at inside a
 * gzip stream) choose the importer from the registry (ws-importer.c); the
 * scenario rules are applied to the result.  The asynchronous variant runs
 * the same code in a GTask thread for the GUI.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <gio/gunixinputstream.h>
#include <glib/gi18n-lib.h>
#include <glib/gstdio.h>
#include <poll.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ws-ctf-importer.h"
#include "ws-error.h"
#include "ws-importer.h"
#include "ws-trace-loader.h"

/*
 * The sniffers look at the first 4 KiB of text.  Text that fills that
 * window without any sniffer recognising it yet -- `perf script --header`
 * from a machine with a hundred CPUs, a folded file whose first stack is
 * a deep Java one -- is looked at again in a window twice as large, up to
 * 1 MiB: past that a file is refused as not a trace.
 */
#define SNIFF_FIRST (4 * 1024)
#define SNIFF_MAX   (1024 * 1024)

/* Reads on until @head holds @window bytes or the input ends. */
static gboolean
read_head (GInputStream  *stream,
           guint8        *head,
           gsize          window,
           gsize         *len,
           GCancellable  *cancellable,
           GError       **error)
{
  gsize n = 0;
  gboolean ok = g_input_stream_read_all (stream, head + *len, window - *len, &n, cancellable, error);

  *len += n;
  return ok;
}

static void
set_io_error (GError     **error,
              const char  *path,
              GError      *io_error)
{
  if (g_error_matches (io_error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    g_set_error (error, WS_ERROR, WS_ERROR_CANCELLED, "%s: %s", path, _("cancelled"));
  else if (g_error_matches (io_error, G_IO_ERROR, G_IO_ERROR_PARTIAL_INPUT))
    g_set_error (error, WS_ERROR, WS_ERROR_TRUNCATED, "%s:1: %s (%s)", path,
                 _("the compressed data ends early"), io_error->message);
  else if (g_error_matches (io_error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA))
    g_set_error (error, WS_ERROR, WS_ERROR_PARSE, "%s:1: %s (%s)", path,
                 _("corrupt compressed data"), io_error->message);
  else if (g_error_matches (io_error, G_IO_ERROR, G_IO_ERROR_IS_DIRECTORY))
    g_set_error (error, WS_ERROR, WS_ERROR_IO, "%s: %s", path, _("a directory, not a trace file"));
  else
    g_set_error (error, WS_ERROR, WS_ERROR_IO, "%s: %s", path, io_error->message);
}

/* The first bytes of the text inside a gzip stream, from its first
 * compressed bytes. */
static gboolean
gunzip_head (const guint8  *in,
             gsize          in_len,
             guint8        *out,
             gsize          window,
             gsize         *out_len,
             GError       **error)
{
  g_autoptr(GZlibDecompressor) gunzip = g_zlib_decompressor_new (G_ZLIB_COMPRESSOR_FORMAT_GZIP);
  gsize in_pos = 0;

  *out_len = 0;
  while (*out_len < window)
    {
      g_autoptr(GError) local_error = NULL;
      gsize n_read = 0, n_written = 0;
      GConverterResult result;

      result = g_converter_convert (G_CONVERTER (gunzip), in + in_pos, in_len - in_pos,
                                    out + *out_len, window - *out_len,
                                    G_CONVERTER_NO_FLAGS, &n_read, &n_written, &local_error);
      in_pos += n_read;
      *out_len += n_written;
      if (result == G_CONVERTER_FINISHED || (result != G_CONVERTER_ERROR && n_read == 0 && n_written == 0))
        break;
      if (result == G_CONVERTER_ERROR)
        {
          /* A compressed file shorter than the sniffing window, or a head
           * cut in the middle of a block, legitimately ends here; only one
           * that yields nothing is an error. */
          if (*out_len > 0)
            break;
          g_propagate_error (error, g_steal_pointer (&local_error));
          return FALSE;
        }
    }
  return TRUE;
}

/* 1 + the number of lines before @at. */
static guint
line_of (const guint8 *head,
         const guint8 *at)
{
  guint line = 1;

  for (const guint8 *s = head; s < at && (s = memchr (s, '\n', at - s)) != NULL; s++)
    line++;
  return line;
}

/* The importer for a file from its first (raw, maybe compressed) bytes,
 * looking at no more than @window bytes of text.  %NULL with @grow set
 * (and no error) when a larger window might tell. */
static const WsImporter *
sniff_head (const char    *path,
            const guint8  *raw,
            gsize          raw_len,
            gsize          window,
            gboolean      *compressed,
            gboolean      *grow,
            GError       **error)
{
  g_autofree guint8 *text = NULL;
  g_autofree char *formats = NULL;
  const WsImporter *importer;
  const guint8 *head = raw, *nul;
  gsize len = raw_len;

  if (compressed)
    *compressed = FALSE;
  *grow = FALSE;

  if (raw_len >= 2 && raw[0] == 0x1f && raw[1] == 0x8b)
    {
      g_autoptr(GError) local_error = NULL;

      if (compressed)
        *compressed = TRUE;
      text = g_malloc (window);
      if (!gunzip_head (raw, raw_len, text, window, &len, &local_error))
        {
          set_io_error (error, path, local_error);
          return NULL;
        }
      head = text;
    }

  if (len == 0)
    {
      g_set_error (error, WS_ERROR, WS_ERROR_EMPTY, "%s:1: %s", path, _("the file is empty"));
      return NULL;
    }
  if ((importer = ws_importers_sniff (head, len)) != NULL)
    return importer;

  nul = memchr (head, '\0', len);
  /* Text up to the end of the window: its first line or its header may
   * just be longer than the window. */
  if (nul == NULL && len >= window && window < SNIFF_MAX)
    {
      *grow = TRUE;
      return NULL;
    }

  formats = ws_importers_describe ();
  if (nul != NULL)
    {
      /* TRANSLATORS: %s lists the formats read, e.g. "perf script text or perf.data, Waitscope JSON trace" */
      g_autofree char *why = g_strdup_printf (_("binary data that is not a trace Waitscope reads (expected one of: %s)"), formats);
      g_set_error (error, WS_ERROR, WS_ERROR_BINARY, "%s:%u: %s", path, line_of (head, nul), why);
    }
  else if (len >= SNIFF_MAX)
    {
      /* TRANSLATORS: %s lists the formats read, e.g. "perf script text or perf.data, Waitscope JSON trace" */
      g_autofree char *why = g_strdup_printf (_("not a trace Waitscope reads: nothing in its first 1 MiB looks like one (expected one of: %s)"), formats);
      g_set_error (error, WS_ERROR, WS_ERROR_PARSE, "%s:1: %s", path, why);
    }
  else
    {
      /* TRANSLATORS: %s lists the formats read, e.g. "perf script text or perf.data, Waitscope JSON trace" */
      g_autofree char *why = g_strdup_printf (_("not a trace Waitscope reads (expected one of: %s)"), formats);
      g_set_error (error, WS_ERROR, WS_ERROR_PARSE, "%s:1: %s", path, why);
    }
  return NULL;
}

/**
 * ws_trace_loader_sniff:
 * @compressed: (out) (optional): whether the file is gzip-compressed
 *
 * Reads the first bytes of @path, so on a pipe or FIFO they are gone
 * afterwards (ws_trace_loader_load() reads those in one go).
 *
 * Returns: (transfer none) (nullable): the importer for @path from its
 *   first bytes; on %NULL @error says why (unreadable, empty, binary, or
 *   just not a trace)
 */
const WsImporter *
ws_trace_loader_sniff (const char    *path,
                       gboolean      *compressed,
                       GCancellable  *cancellable,
                       GError       **error)
{
  g_autoptr(GFile) file = NULL;
  g_autoptr(GFileInputStream) in = NULL;
  g_autoptr(GError) local_error = NULL;
  g_autofree guint8 *head = NULL;
  gsize len = 0, window;

  g_return_val_if_fail (path != NULL, NULL);

  if (compressed)
    *compressed = FALSE;

  /* A directory is a trace when it holds one in CTF (LTTng): its
   * `metadata` file, a few levels down at most, is sniffed. */
  if (g_file_test (path, G_FILE_TEST_IS_DIR))
    {
      g_autofree char *metadata = ws_ctf_find_metadata (path);

      if (metadata == NULL)
        {
          g_set_error (error, WS_ERROR, WS_ERROR_IO, "%s: %s", path,
                       _("a directory, not a trace file (nor a CTF trace directory: no file called “metadata” in it)"));
          return NULL;
        }
      file = g_file_new_for_path (metadata);
    }
  else
    file = g_file_new_for_path (path);
  if ((in = g_file_read (file, cancellable, &local_error)) == NULL)
    {
      set_io_error (error, path, local_error);
      return NULL;
    }
  for (window = SNIFF_FIRST;; window *= 2)
    {
      const WsImporter *importer;
      gboolean grow = FALSE;

      head = g_realloc (head, window);
      if (!read_head (G_INPUT_STREAM (in), head, window, &len, cancellable, &local_error))
        {
          set_io_error (error, path, local_error);
          return NULL;
        }
      importer = sniff_head (path, head, len, window, compressed, &grow, error);
      if (importer != NULL || !grow)
        return importer;
    }
}

/* How long a FIFO may go without a writer: WAITSCOPE_FIFO_TIMEOUT
 * seconds, 30 by default. */
static guint
fifo_timeout (void)
{
  const char *env = g_getenv ("WAITSCOPE_FIFO_TIMEOUT");
  guint64 v;

  if (env != NULL && g_ascii_string_to_unsigned (env, 10, 1, 24 * 3600, &v, NULL))
    return (guint) v;
  return 30;
}

/*
 * A FIFO with no writer blocks open() until one comes: forever, and
 * beyond the reach of any cancellable.  So it is opened without blocking
 * and polled in 100 ms slices that look at @cancellable, until a writer
 * has written (or come and gone: POLLHUP, then the read sees the end) or
 * the timeout passes; then reads block as usual.
 */
static GInputStream *
open_fifo (const char    *path,
           const char    *name,
           GCancellable  *cancellable,
           GError       **error)
{
  int fd = g_open (path, O_RDONLY | O_NONBLOCK | O_CLOEXEC, 0);
  guint timeout = fifo_timeout ();
  gint64 deadline = g_get_monotonic_time () + timeout * G_USEC_PER_SEC;

  if (fd < 0)
    {
      int saved = errno;

      g_set_error (error, WS_ERROR, WS_ERROR_IO, "%s: %s", name, g_strerror (saved));
      return NULL;
    }

  for (;;)
    {
      struct pollfd p = { .fd = fd, .events = POLLIN };
      int r = poll (&p, 1, 100);

      if (r > 0)
        break;
      if (r < 0 && errno != EINTR)
        {
          int saved = errno;

          g_set_error (error, WS_ERROR, WS_ERROR_IO, "%s: %s", name, g_strerror (saved));
          close (fd);
          return NULL;
        }
      if (g_cancellable_is_cancelled (cancellable))
        {
          g_set_error (error, WS_ERROR, WS_ERROR_CANCELLED, "%s: %s", name, _("cancelled"));
          close (fd);
          return NULL;
        }
      if (g_get_monotonic_time () >= deadline)
        {
          g_set_error (error, WS_ERROR, WS_ERROR_IO,
                       ngettext ("%s: a FIFO, and nothing was written to it within %u second",
                                 "%s: a FIFO, and nothing was written to it within %u seconds", timeout),
                       name, timeout);
          close (fd);
          return NULL;
        }
    }

  fcntl (fd, F_SETFL, fcntl (fd, F_GETFL) & ~O_NONBLOCK);
  return g_unix_input_stream_new (fd, TRUE);
}

/*
 * A pipe, a FIFO, a terminal, "-" (standard input): what is read cannot be
 * read again, so the head is sniffed from a buffer in front of the stream
 * and the importer reads on from that same buffer.
 */
static WsTrace *
load_unseekable (const char      *path,
                 const char      *name,
                 WsStackTable    *stacks,
                 WsProgressFunc   progress,
                 gpointer         progress_data,
                 GCancellable    *cancellable,
                 GError         **error)
{
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(GInputStream) in = NULL;
  g_autoptr(GInputStream) buffered = NULL;
  g_autoptr(GError) local_error = NULL;
  const WsImporter *importer = NULL;
  const guint8 *head;
  gsize len = 0, window;
  gboolean compressed = FALSE, grow = TRUE;
  GStatBuf st;

  if (strcmp (path, "/dev/stdin") != 0 && g_stat (path, &st) == 0 && S_ISFIFO (st.st_mode))
    {
      if ((in = open_fifo (path, name, cancellable, error)) == NULL)
        return NULL;
    }
  else if ((in = G_INPUT_STREAM (g_file_read (file, cancellable, &local_error))) == NULL)
    {
      set_io_error (error, name, local_error);
      return NULL;
    }
  buffered = g_buffered_input_stream_new_sized (in, SNIFF_FIRST);
  for (window = SNIFF_FIRST; importer == NULL && grow; window *= 2)
    {
      /* The head stays in the buffer, for the importer to read again. */
      g_buffered_input_stream_set_buffer_size (G_BUFFERED_INPUT_STREAM (buffered), window);
      for (;;)
        {
          gssize n;

          g_buffered_input_stream_peek_buffer (G_BUFFERED_INPUT_STREAM (buffered), &len);
          if (len >= window)
            break;
          n = g_buffered_input_stream_fill (G_BUFFERED_INPUT_STREAM (buffered), window - len,
                                            cancellable, &local_error);
          if (n < 0)
            {
              set_io_error (error, name, local_error);
              return NULL;
            }
          if (n == 0)
            break;
        }
      head = g_buffered_input_stream_peek_buffer (G_BUFFERED_INPUT_STREAM (buffered), &len);
      importer = sniff_head (name, head, len, window, &compressed, &grow, error);
    }
  if (importer == NULL)
    return NULL;
  return importer->load_stream (buffered, name, compressed, stacks, progress, progress_data,
                                cancellable, error);
}

/* A regular file: sniffed, then opened again by the importer, which can
 * seek, report progress by position and hand a perf.data path to perf. */
static WsTrace *
load_file (const char      *path,
           WsStackTable    *stacks,
           WsProgressFunc   progress,
           gpointer         progress_data,
           GCancellable    *cancellable,
           GError         **error)
{
  const WsImporter *importer = ws_trace_loader_sniff (path, NULL, cancellable, error);

  if (importer == NULL)
    return NULL;
  return importer->load_file (path, stacks, progress, progress_data, cancellable, error);
}

/**
 * ws_trace_loader_load_full:
 * @path: a trace file, a pipe or FIFO, or "-" for standard input (named
 *   "stdin" in messages)
 * @stacks: (nullable): a stack table to share between traces, or %NULL.
 *   It is not locked: load into one table from one thread at a time.
 * @rules: (nullable): the scenario rules to apply, or %NULL for the
 *   built-in ones (ws_scenario_rules_new_default())
 * @progress: (nullable): called from the calling thread
 *
 * Returns: (transfer full) (nullable): the trace, or %NULL with @error set
 *   (a #WS_ERROR whose message starts with "FILE:LINE: ")
 */
WsTrace *
ws_trace_loader_load_full (const char       *path,
                           WsStackTable     *stacks,
                           WsScenarioRules  *rules,
                           WsProgressFunc    progress,
                           gpointer          progress_data,
                           GCancellable     *cancellable,
                           GError          **error)
{
  g_autoptr(WsScenarioRules) default_rules = NULL;
  WsTrace *trace = NULL;
  GStatBuf st;

  g_return_val_if_fail (path != NULL, NULL);
  g_return_val_if_fail (rules == NULL || WS_IS_SCENARIO_RULES (rules), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  /* GIO's answer to "" is "Operation not supported". */
  if (*path == '\0')
    {
      g_set_error_literal (error, WS_ERROR, WS_ERROR_IO,
                           _("the trace's file name is empty: name a file, or “-” for standard input"));
      return NULL;
    }
  if (strcmp (path, "-") == 0)
    trace = load_unseekable ("/dev/stdin", "stdin", stacks, progress, progress_data, cancellable, error);
  else if (g_stat (path, &st) == 0 && !S_ISREG (st.st_mode) && !S_ISDIR (st.st_mode))
    trace = load_unseekable (path, path, stacks, progress, progress_data, cancellable, error);
  else
    trace = load_file (path, stacks, progress, progress_data, cancellable, error);

  if (trace == NULL)
    return NULL;

  if (rules == NULL)
    rules = default_rules = ws_scenario_rules_new_default ();
  ws_scenario_rules_apply (rules, trace);

  return trace;
}

/**
 * ws_trace_loader_load:
 *
 * ws_trace_loader_load_full() with the built-in scenario rules.
 *
 * Returns: (transfer full) (nullable): the trace, or %NULL with @error set
 */
WsTrace *
ws_trace_loader_load (const char      *path,
                      WsStackTable    *stacks,
                      WsProgressFunc   progress,
                      gpointer         progress_data,
                      GCancellable    *cancellable,
                      GError         **error)
{
  return ws_trace_loader_load_full (path, stacks, NULL, progress, progress_data, cancellable, error);
}

typedef struct {
  char            *path;
  WsStackTable    *stacks;
  WsScenarioRules *rules;
  WsProgressFunc   progress;
  gpointer         progress_data;
} LoadData;

static void
load_data_free (gpointer data)
{
  LoadData *d = data;

  g_free (d->path);
  g_clear_object (&d->stacks);
  g_clear_object (&d->rules);
  g_free (d);
}

static void
load_thread (GTask        *task,
             gpointer      source_object,
             gpointer      task_data,
             GCancellable *cancellable)
{
  /* WsStackTable interning is not locked: loads into a shared table (the
   * GUI opens many traces into one) take turns; loads with a table of
   * their own run in parallel. */
  static GMutex shared_table_lock;
  LoadData *d = task_data;
  GError *error = NULL;
  WsTrace *trace;

  if (d->stacks != NULL)
    g_mutex_lock (&shared_table_lock);
  trace = ws_trace_loader_load_full (d->path, d->stacks, d->rules, d->progress, d->progress_data,
                                     cancellable, &error);
  if (d->stacks != NULL)
    g_mutex_unlock (&shared_table_lock);
  if (trace == NULL)
    g_task_return_error (task, error);
  else
    g_task_return_pointer (task, trace, g_object_unref);
}

/**
 * ws_trace_loader_load_async:
 * @progress: (nullable): called from the worker thread: the caller
 *   coalesces the reports into its main loop
 *
 * Loads @path in a worker thread.  Cancelling @cancellable stops the
 * reading soon after; the result is then a %WS_ERROR_CANCELLED error.
 * Asynchronous loads into a shared @stacks table run one at a time (the
 * table is not locked); do not intern into it from elsewhere meanwhile.
 */
void
ws_trace_loader_load_async (const char          *path,
                            WsStackTable        *stacks,
                            WsScenarioRules     *rules,
                            WsProgressFunc       progress,
                            gpointer             progress_data,
                            GCancellable        *cancellable,
                            GAsyncReadyCallback  callback,
                            gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  LoadData *d;

  g_return_if_fail (path != NULL);
  g_return_if_fail (stacks == NULL || WS_IS_STACK_TABLE (stacks));
  g_return_if_fail (rules == NULL || WS_IS_SCENARIO_RULES (rules));

  d = g_new0 (LoadData, 1);
  d->path = g_strdup (path);
  d->stacks = stacks ? g_object_ref (stacks) : NULL;
  d->rules = rules ? g_object_ref (rules) : NULL;
  d->progress = progress;
  d->progress_data = progress_data;

  task = g_task_new (NULL, cancellable, callback, user_data);
  g_task_set_source_tag (task, ws_trace_loader_load_async);
  g_task_set_task_data (task, d, load_data_free);
  /* Our own WS_ERROR_CANCELLED, not GTask's G_IO_ERROR_CANCELLED. */
  g_task_set_check_cancellable (task, FALSE);
  g_task_run_in_thread (task, load_thread);
}

/**
 * ws_trace_loader_load_finish:
 *
 * Returns: (transfer full) (nullable): the trace, or %NULL with @error set
 */
WsTrace *
ws_trace_loader_load_finish (GAsyncResult  *result,
                             GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, NULL), NULL);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) == ws_trace_loader_load_async, NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}
