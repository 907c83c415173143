/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The perf importer reads ahead on a thread of its own
 * (ws-perf-prefetch.c).  Laws:
 *  - input handed over in random pieces, as a pipe does, gives the very
 *    events, threads and stacks the file gives (plain text and gzip);
 *  - a load cancelled once reading has begun says cancelled and leaves
 *    nothing behind;
 *  - a parse that fails while the writer of a pipe still holds it open
 *    returns at once: the read under way is cancelled, not waited for.
 */
#define _GNU_SOURCE   /* F_SETPIPE_SZ */
#include "config.h"

#include <gio/gunixinputstream.h>
#include <glib/gstdio.h>
#include <string.h>
#include <fcntl.h>
#include <unistd.h>

#include "ws-error.h"
#include "ws-perf-importer.h"

/* A stream of @bytes handed out in random pieces of 1 byte to 90 kB. */
typedef struct {
  GInputStream parent;
  GBytes      *bytes;
  gsize        pos;
  GRand       *rand;
} TrickleStream;

typedef GInputStreamClass TrickleStreamClass;

G_DEFINE_TYPE (TrickleStream, trickle_stream, G_TYPE_INPUT_STREAM)

static gssize
trickle_read (GInputStream  *stream,
              void          *buffer,
              gsize          count,
              GCancellable  *cancellable,
              GError       **error)
{
  TrickleStream *self = (TrickleStream *) stream;
  gsize size, n, piece = g_rand_int_range (self->rand, 1, 90000);
  const guint8 *data = g_bytes_get_data (self->bytes, &size);

  if (g_cancellable_set_error_if_cancelled (cancellable, error))
    return -1;
  n = MIN (count, size - self->pos);
  n = MIN (n, piece);
  memcpy (buffer, data + self->pos, n);
  self->pos += n;
  return n;
}

static void
trickle_finalize (GObject *object)
{
  TrickleStream *self = (TrickleStream *) object;

  g_bytes_unref (self->bytes);
  g_rand_free (self->rand);
  G_OBJECT_CLASS (trickle_stream_parent_class)->finalize (object);
}

static void
trickle_stream_class_init (TrickleStreamClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = trickle_finalize;
  klass->read_fn = trickle_read;
}

static void
trickle_stream_init (TrickleStream *self)
{
}

static GInputStream *
trickle_new (GBytes *bytes,
             guint32 seed)
{
  TrickleStream *self = g_object_new (trickle_stream_get_type (), NULL);

  self->bytes = g_bytes_ref (bytes);
  self->rand = g_rand_new_with_seed (seed);
  return G_INPUT_STREAM (self);
}

static void
assert_same_trace (WsTrace *a,
                   WsTrace *b)
{
  g_assert_cmpuint (ws_trace_get_n_events (a), ==, ws_trace_get_n_events (b));
  g_assert_cmpint (memcmp (ws_trace_get_events (a), ws_trace_get_events (b),
                           ws_trace_get_n_events (a) * sizeof (WsEvent)), ==, 0);
  g_assert_cmpuint (ws_trace_get_n_threads (a), ==, ws_trace_get_n_threads (b));
  for (guint t = 0; t < ws_trace_get_n_threads (a); t++)
    {
      g_assert_cmpint (ws_trace_get_thread (a, t)->tid, ==, ws_trace_get_thread (b, t)->tid);
      g_assert_cmpstr (ws_trace_get_thread (a, t)->name, ==, ws_trace_get_thread (b, t)->name);
    }
  g_assert_cmpuint (ws_stack_table_get_n_stacks (ws_trace_get_stack_table (a)), ==,
                    ws_stack_table_get_n_stacks (ws_trace_get_stack_table (b)));
}

/* A trace of tests/data, gzip as stored, and its text inflated. */
static GBytes *
read_data (const char *name,
           gboolean    inflate)
{
  g_autofree char *path = g_build_filename (g_getenv ("WS_TEST_DATA"), name, NULL);
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) bytes = g_file_load_bytes (file, NULL, NULL, &error);
  g_autoptr(GConverter) z = NULL;
  g_autoptr(GInputStream) in = NULL;
  g_autoptr(GOutputStream) out = NULL;

  g_assert_no_error (error);
  if (!inflate)
    return g_steal_pointer (&bytes);
  z = G_CONVERTER (g_zlib_decompressor_new (G_ZLIB_COMPRESSOR_FORMAT_GZIP));
  in = g_converter_input_stream_new (g_memory_input_stream_new_from_bytes (bytes), z);
  g_object_unref (g_filter_input_stream_get_base_stream (G_FILTER_INPUT_STREAM (in)));
  out = g_memory_output_stream_new_resizable ();
  g_output_stream_splice (out, in, G_OUTPUT_STREAM_SPLICE_CLOSE_TARGET, NULL, &error);
  g_assert_no_error (error);
  return g_memory_output_stream_steal_as_bytes (G_MEMORY_OUTPUT_STREAM (out));
}

static void
test_trickle (void)
{
  static const char *names[] = { "pg-tpcb.perf.txt.gz" };

  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    {
      g_autofree char *path = g_build_filename (g_getenv ("WS_TEST_DATA"), names[i], NULL);
      g_autoptr(GError) error = NULL;
      g_autoptr(WsTrace) whole = ws_perf_importer_load (path, NULL, NULL, NULL, NULL, &error);

      g_assert_no_error (error);
      for (guint inflate = 0; inflate < 2; inflate++)
        {
          g_autoptr(GBytes) bytes = read_data (names[i], inflate);
          g_autoptr(GInputStream) stream = trickle_new (bytes, g_test_rand_int ());
          g_autoptr(WsTrace) pieces = ws_perf_importer_load_stream (stream, names[i], NULL, NULL, NULL,
                                                                    NULL, &error);

          g_assert_no_error (error);
          assert_same_trace (whole, pieces);
        }
    }
}

/* Cancels at the first report, made once the first text is read (later
 * reports depend on how fast the machine reads). */
static void
cancel_on_report (double      fraction,
                  const char *message,
                  gpointer    data)
{
  g_cancellable_cancel (data);
}

static void
test_cancel (void)
{
  g_autoptr(GBytes) bytes = read_data ("pg-tpcb.perf.txt.gz", TRUE);
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  g_autoptr(GError) error = NULL;
  g_autoptr(WsTrace) trace = NULL;

  /* A file, as a stream has no size to count progress against. */
  g_autofree char *path = g_build_filename (g_get_tmp_dir (), "ws-prefetch-XXXXXX.perf.txt", NULL);
  int fd = g_mkstemp (path);

  g_assert_cmpint (fd, >=, 0);
  close (fd);
  g_assert_true (g_file_set_contents (path, g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes), NULL));
  trace = ws_perf_importer_load (path, NULL, cancel_on_report, cancellable, cancellable, &error);
  g_assert_null (trace);
  g_assert_error (error, WS_ERROR, WS_ERROR_CANCELLED);
  g_unlink (path);
}

static void
test_stalled_pipe (void)
{
  g_autoptr(GBytes) bytes = read_data ("pg-tpcb.perf.txt.gz", TRUE);
  g_autoptr(GInputStream) stream = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(WsTrace) trace = NULL;
  gsize len = 100 * 1024;
  g_autofree guint8 *text = g_memdup2 (g_bytes_get_data (bytes, NULL), len);
  int fds[2];

  /* Real text with a NUL byte early on, longer than the head the
   * importer sniffs so the rest is read ahead; then the writer holds the
   * pipe open and writes nothing. */
  text[1000] = '\0';
  g_assert_cmpint (pipe (fds), ==, 0);
  /* Room for all of it, so the write does not wait for the reader. */
  g_assert_cmpint (fcntl (fds[1], F_SETPIPE_SZ, 256 * 1024), >=, (int) len);
  g_assert_cmpint (write (fds[1], text, len), ==, (gssize) len);
  stream = g_unix_input_stream_new (fds[0], TRUE);
  trace = ws_perf_importer_load_stream (stream, "pipe", NULL, NULL, NULL, NULL, &error);
  g_assert_null (trace);
  g_assert_error (error, WS_ERROR, WS_ERROR_BINARY);
  close (fds[1]);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/perf-prefetch/trickle", test_trickle);
  g_test_add_func ("/perf-prefetch/cancel", test_cancel);
  g_test_add_func ("/perf-prefetch/stalled-pipe", test_stalled_pipe);
  return g_test_run ();
}
