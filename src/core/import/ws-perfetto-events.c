/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * A Perfetto trace (protos/perfetto/trace/trace.proto) decoded into flat
 * events.  Field numbers are those of Perfetto's public .proto files:
 *
 *   Trace            packet 1
 *   TracePacket      timestamp 8, trusted_packet_sequence_id 10,
 *                    interned_data 12, sequence_flags 13,
 *                    incremental_state_cleared 41, trace_packet_defaults 59,
 *                    ftrace_events 1, process_tree 2, perf_sample 66,
 *                    compressed_packets 50, zstd_compressed_packets 133
 *   FtraceEventBundle cpu 1, event 2, compact_sched 4
 *   FtraceEvent      timestamp 1, pid 2, common_flags 5, sched_switch 4,
 *                    sched_wakeup 17, sched_waking 20, sched_wakeup_new 114,
 *                    task_newtask 235, task_rename 236, sched_process_exec 237,
 *                    sched_process_exit 238, sched_process_fork 239
 *   PerfSample       cpu 1, pid 2, tid 3, callstack_iid 4, timebase_count 6,
 *                    kernel_records_lost 17, sample_skipped_reason 18
 *   InternedData     function_names 5, frames 6, callstacks 7,
 *                    mapping_paths 17, mappings 19
 *
 * Interned data (frames, call stacks, their strings) belongs to the
 * sequence of packets that wrote it and is forgotten when the sequence
 * clears its incremental state.  Which event a PerfSample samples is said
 * by its sequence's TracePacketDefaults (perf_sample_defaults.timebase):
 * a counter (cpu-clock, cycles…) makes CPU samples; a tracepoint
 * (sched:sched_switch…) makes the call stacks of those events.
 */
#include "config.h"

#include <string.h>
#include <zlib.h>

#include <glib/gi18n-lib.h>

#include "ws-error.h"
#include "ws-inflate-limit.h"
#include "ws-perfetto-private.h"
#include "ws-trace-private.h"

guint64 *
key_new (guint64 v)
{
  guint64 *k = g_new (guint64, 1);

  *k = v;
  return k;
}

static GHashTable *
iid_table (GDestroyNotify free_value)
{
  return g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, free_value);
}

static void
sequence_clear_interned (Sequence *s)
{
  g_hash_table_remove_all (s->names);
  g_hash_table_remove_all (s->paths);
  g_hash_table_remove_all (s->mappings);
  g_hash_table_remove_all (s->frames);
  g_hash_table_remove_all (s->callstacks);
}

static void
sequence_free (gpointer data)
{
  Sequence *s = data;

  g_hash_table_unref (s->names);
  g_hash_table_unref (s->paths);
  g_hash_table_unref (s->mappings);
  g_hash_table_unref (s->frames);
  g_hash_table_unref (s->callstacks);
  g_hash_table_unref (s->counts);
  g_free (s);
}

static Sequence *
sequence_get (Decoder *d,
              guint32  id)
{
  Sequence *s = g_hash_table_lookup (d->sequences, GUINT_TO_POINTER (id));

  if (s == NULL)
    {
      s = g_new0 (Sequence, 1);
      s->names = iid_table (g_free);
      s->paths = iid_table (g_free);
      s->mappings = iid_table (g_free);
      s->frames = iid_table (NULL);
      s->callstacks = iid_table (NULL);
      s->counts = g_hash_table_new (NULL, NULL);
      s->sample_kind = PF_SAMPLE;
      s->stack_of = -1;
      s->sample_name = WS_NONE;
      g_hash_table_insert (d->sequences, GUINT_TO_POINTER (id), s);
    }
  return s;
}

/* A damaged field: "FILE:1: byte N of the Perfetto trace (WHAT): WHY". */
gboolean
fail_at (Decoder    *d,
         gsize       offset,
         const char *what,
         const char *why)
{
  g_autofree char *place = g_strdup_printf ("%" G_GSIZE_FORMAT, d->nesting > 0 ? d->outer_offset : offset);

  if (d->error == NULL)
    g_set_error (&d->error, WS_ERROR, WS_ERROR_PARSE, _("%s:1: byte %s of the Perfetto trace (%s): %s"),
                 d->display_name, place, what, why);
  return FALSE;
}

gboolean
fail_cursor (Decoder          *d,
             const WsPbCursor *c,
             const char       *what)
{
  return fail_at (d, c->error_offset, what, ws_pb_status_message (c->status));
}

/* A string field's text, valid UTF-8 (damaged bytes replaced), kept once;
 * %NULL if the field is not length-delimited. */
const char *
intern_text (Decoder         *d,
             const WsPbField *f)
{
  g_autofree char *text = NULL;
  const char *kept;

  if (f->wire != WS_PB_BYTES)
    return NULL;
  text = g_utf8_make_valid ((const char *) f->data, (gssize) f->len);
  kept = g_hash_table_lookup (d->interned, text);
  if (kept == NULL)
    {
      kept = g_string_chunk_insert (d->out->strings, text);
      g_hash_table_add (d->interned, (gpointer) kept);
    }
  return kept;
}

PfEvent *
add_event (Decoder *d,
           PfKind   kind,
           gint64   time,
           guint    cpu)
{
  PfEvent e = { 0 };

  e.time = MIN (time, WS_TIME_MAX);
  e.order = d->out->events->len;
  e.cpu = (guint16) MIN (cpu, G_MAXUINT16);
  e.kind = kind;
  e.tid = e.pid = e.a = e.b = -1;
  e.stack = WS_STACK_EMPTY;
  e.name = WS_NONE;
  g_array_append_val (d->out->events, e);
  return &g_array_index (d->out->events, PfEvent, d->out->events->len - 1);
}

/* A packed (or plain, repeated) varint field appended to @array. */
gboolean
append_values (Decoder          *d,
               const WsPbCursor *parent,
               const WsPbField  *f,
               GArray           *array)
{
  WsPbCursor c;
  guint64 v;

  if (f->wire == WS_PB_VARINT)
    {
      g_array_append_val (array, f->value);
      return TRUE;
    }
  if (f->wire != WS_PB_BYTES)
    return fail_at (d, f->offset, "compact_sched", _("an array that is neither packed nor a number"));
  ws_pb_cursor_sub (&c, parent, f);
  while (ws_pb_next_packed (&c, &v))
    g_array_append_val (array, v);
  if (c.status != WS_PB_OK)
    return fail_cursor (d, &c, "compact_sched");
  return TRUE;
}

/* ---- packets --------------------------------------------------------- */

static gboolean read_packets (Decoder      *d,
                              const guint8 *base,
                              gsize         len);

/* compressed_packets: a zlib stream of more packets (a Trace fragment),
 * inflated within the decompression ceiling. */
static gboolean
read_compressed (Decoder         *d,
                 const WsPbField *f)
{
  g_autoptr(GByteArray) out = g_byte_array_new ();
  z_stream z = { 0 };
  guint8 buf[64 * 1024];
  int status = Z_OK;
  gboolean ok;

  if (d->nesting >= MAX_NESTING || f->wire != WS_PB_BYTES)
    return fail_at (d, f->offset, _("compressed packets"), _("compressed packets inside compressed packets"));
  if (inflateInit (&z) != Z_OK)
    return fail_at (d, f->offset, _("compressed packets"), _("zlib cannot start"));
  z.next_in = (Bytef *) f->data;
  z.avail_in = (uInt) MIN (f->len, G_MAXUINT);
  while (status == Z_OK)
    {
      g_autoptr(GError) bomb = NULL;

      z.next_out = buf;
      z.avail_out = sizeof buf;
      status = inflate (&z, Z_NO_FLUSH);
      g_byte_array_append (out, buf, sizeof buf - z.avail_out);
      if (!ws_inflate_check (f->len, out->len, &bomb))
        {
          inflateEnd (&z);
          return fail_at (d, f->offset, _("compressed packets"), bomb->message);
        }
    }
  inflateEnd (&z);
  if (status != Z_STREAM_END)
    return fail_at (d, f->offset, _("compressed packets"), _("the zlib stream is damaged or cut short"));
  d->nesting++;
  d->outer_offset = f->offset;
  ok = read_packets (d, out->data, out->len);
  d->nesting--;
  return ok;
}

static gboolean
read_packet (Decoder          *d,
             const WsPbCursor *parent,
             const WsPbField  *field)
{
  WsPbCursor c;
  WsPbField f;
  guint64 time = 0;
  guint32 seq_id = 0, flags = 0;
  Sequence *seq;

  if (field->wire != WS_PB_BYTES)
    return fail_at (d, field->offset, _("a trace packet"), _("a packet that is not a message"));
  /* The packet's time, sequence and state first: a packet may intern
   * the data its own sample refers to, in any field order. */
  ws_pb_cursor_sub (&c, parent, field);
  FOR_EACH_FIELD (&c, &f, _("a trace packet"), {
    if (f.number == 8 && f.wire == WS_PB_VARINT)
      time = f.value;
    else if (f.number == 10 && f.wire == WS_PB_VARINT)
      seq_id = (guint32) f.value;
    else if (f.number == 13 && f.wire == WS_PB_VARINT)
      flags |= (guint32) f.value;
    else if (f.number == 41 && f.wire == WS_PB_VARINT && f.value != 0)
      flags |= SEQ_INCREMENTAL_STATE_CLEARED;
  });
  seq = sequence_get (d, seq_id);
  if (flags & SEQ_INCREMENTAL_STATE_CLEARED)
    sequence_clear_interned (seq);

  ws_pb_cursor_sub (&c, parent, field);
  FOR_EACH_FIELD (&c, &f, _("a trace packet"), {
    if (f.number == 59 && !read_defaults (d, &c, &f, seq))
      return FALSE;
    if (f.number == 12 && !read_interned (d, &c, &f, seq))
      return FALSE;
  });

  ws_pb_cursor_sub (&c, parent, field);
  FOR_EACH_FIELD (&c, &f, _("a trace packet"), {
    gboolean ok = TRUE;

    switch (f.number)
      {
      case 1: ok = read_ftrace_bundle (d, &c, &f); break;
      case 2: ok = read_process_tree (d, &c, &f, (gint64) MIN (time, (guint64) WS_TIME_MAX)); break;
      case 66: ok = read_perf_sample (d, &c, &f, seq, (gint64) MIN (time, (guint64) WS_TIME_MAX)); break;
      case 50: ok = read_compressed (d, &f); break;
      case 133: d->out->n_zstd_packets++; break;
      default: break;
      }
    if (!ok)
      return FALSE;
  });
  return TRUE;
}

/* A Trace: packets (field 1); anything else at the top is damage. */
static gboolean
read_packets (Decoder      *d,
              const guint8 *base,
              gsize         len)
{
  WsPbCursor c;
  WsPbField f;
  guint n = 0;

  ws_pb_cursor_init (&c, base, base, len);
  FOR_EACH_FIELD (&c, &f, _("the packet list"), {
    if (f.number != 1 || f.wire != WS_PB_BYTES)
      return fail_at (d, f.offset, _("the packet list"), _("a field that is not a trace packet"));
    if (!read_packet (d, &c, &f))
      return FALSE;
    if ((++n & 0xfff) == 0 && g_cancellable_is_cancelled (d->cancellable))
      {
        g_set_error (&d->error, WS_ERROR, WS_ERROR_CANCELLED, "%s:1: %s", d->display_name, _("import cancelled"));
        return FALSE;
      }
  });
  return TRUE;
}

/**
 * ws_perfetto_decode:
 * @data: the whole trace, inflated
 * @trace: the trace being made (sample names are interned in it)
 * @stacks: where call stacks are interned
 * @out: (out caller-allocates): the events, in file order
 *
 * Returns: %FALSE with @error ("FILE:1: byte N of the Perfetto trace
 *   (WHAT): WHY") if the trace is damaged
 */
gboolean
ws_perfetto_decode (const guint8  *data,
                    gsize          len,
                    const char    *display_name,
                    WsTrace       *trace,
                    WsStackTable  *stacks,
                    GCancellable  *cancellable,
                    PfDecoded     *out,
                    GError       **error)
{
  Decoder d = { 0 };
  gboolean ok;

  out->events = g_array_new (FALSE, FALSE, sizeof (PfEvent));
  out->strings = g_string_chunk_new (64 * 1024);
  out->n_compact_skipped = out->n_samples_dropped = out->n_zstd_packets = 0;
  d.display_name = display_name;
  d.trace = trace;
  d.stacks = stacks;
  d.cancellable = cancellable;
  d.out = out;
  d.sequences = g_hash_table_new_full (NULL, NULL, NULL, sequence_free);
  d.interned = g_hash_table_new (g_str_hash, g_str_equal);

  ok = read_packets (&d, data, len);
  g_hash_table_unref (d.sequences);
  g_hash_table_unref (d.interned);
  if (!ok)
    {
      g_propagate_error (error, d.error);
      return FALSE;
    }
  return TRUE;
}

void
ws_perfetto_decoded_clear (PfDecoded *decoded)
{
  g_clear_pointer (&decoded->events, g_array_unref);
  g_clear_pointer (&decoded->strings, g_string_chunk_free);
}
