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
#include "ws-perfetto-events.h"
#include "ws-perfetto-reader.h"
#include "ws-trace-private.h"

/* TracePacket.sequence_flags: SEQ_INCREMENTAL_STATE_CLEARED. */
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

static guint64 *
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
static gboolean
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

static gboolean
fail_cursor (Decoder          *d,
             const WsPbCursor *c,
             const char       *what)
{
  return fail_at (d, c->error_offset, what, ws_pb_status_message (c->status));
}

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

/* A string field's text, valid UTF-8 (a damaged one is replaced), kept once. */
static const char *
intern_text (Decoder         *d,
             const WsPbField *f)
{
  g_autofree char *text = g_utf8_make_valid ((const char *) f->data, (gssize) f->len);
  const char *kept;

  if (f->wire != WS_PB_BYTES)
    return NULL;
  /* A NUL inside ends the name, as the kernel's comm would. */
  kept = g_hash_table_lookup (d->interned, text);
  if (kept == NULL)
    {
      kept = g_string_chunk_insert (d->out->strings, text);
      g_hash_table_add (d->interned, (gpointer) kept);
    }
  return kept;
}

static PfEvent *
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

/* ---- ftrace ---------------------------------------------------------- */

/* The fields of one scheduler or task event (numbers by kind, above). */
static gboolean
read_ftrace_payload (Decoder         *d,
                     const WsPbCursor *parent,
                     const WsPbField *payload,
                     PfEvent         *e,
                     const char      *what)
{
  WsPbCursor c;
  WsPbField f;

  if (payload->wire != WS_PB_BYTES)
    return fail_at (d, payload->offset, what, _("an event that is not a message"));
  ws_pb_cursor_sub (&c, parent, payload);
  FOR_EACH_FIELD (&c, &f, what, {
    gint32 n = (gint32) (gint64) f.value;

    switch (e->kind)
      {
      case PF_SWITCH:
        if (f.number == 1) e->s1 = intern_text (d, &f);
        else if (f.number == 2) e->a = n;
        else if (f.number == 4) e->value = f.value;
        else if (f.number == 5) e->s2 = intern_text (d, &f);
        else if (f.number == 6) e->b = n;
        break;
      case PF_WAKING:
      case PF_WAKEUP:
      case PF_WAKEUP_NEW:
        if (f.number == 1) e->s1 = intern_text (d, &f);
        else if (f.number == 2) e->a = n;
        break;
      case PF_FORK:
        if (f.number == 2) e->a = n;
        else if (f.number == 4) e->b = n;
        else if (f.number == 3) e->s1 = intern_text (d, &f);
        break;
      case PF_EXIT:
        if (f.number == 2) e->a = n;
        break;
      case PF_NEWTASK:
        if (f.number == 1) e->a = n;
        else if (f.number == 2) e->s1 = intern_text (d, &f);
        else if (f.number == 3) e->value = f.value;
        break;
      case PF_RENAME:
        /* task_rename: pid 1, newcomm 3; sched_process_exec (value 1):
         * filename 1, pid 2 */
        if (e->value == 0 && f.number == 1) e->a = n;
        else if (e->value == 0 && f.number == 3) e->s1 = intern_text (d, &f);
        else if (e->value == 1 && f.number == 2) e->a = n;
        else if (e->value == 1 && f.number == 1 && f.wire == WS_PB_BYTES)
          {
            /* The kernel names a thread after the file's base name, cut
             * to 15 bytes (TASK_COMM_LEN), as the CTF importer does. */
            const char *path = intern_text (d, &f);
            const char *base = path ? strrchr (path, '/') : NULL;
            g_autofree char *comm = g_utf8_make_valid (base ? base + 1 : path ? path : "", -1);
            WsPbField cut = { .wire = WS_PB_BYTES, .data = (const guint8 *) comm, .len = MIN (strlen (comm), 15) };

            e->s1 = intern_text (d, &cut);
          }
        break;
      default:
        break;
      }
  });
  return TRUE;
}

static gboolean
read_ftrace_event (Decoder          *d,
                   const WsPbCursor *parent,
                   const WsPbField  *field,
                   guint             cpu)
{
  WsPbCursor c;
  WsPbField f, payload = { 0 };
  guint64 time = 0;
  gint32 tid = -1;
  guint32 flags = 0;
  int kind = -1;
  gboolean exec = FALSE;
  PfEvent *e;

  if (field->wire != WS_PB_BYTES)
    return fail_at (d, field->offset, _("an ftrace event"), _("an event that is not a message"));
  ws_pb_cursor_sub (&c, parent, field);
  FOR_EACH_FIELD (&c, &f, _("an ftrace event"), {
    switch (f.number)
      {
      case 1: time = f.value; break;
      case 2: tid = (gint32) f.value; break;
      case 5: flags = (guint32) f.value; break;
      case 4: kind = PF_SWITCH; payload = f; break;
      case 17: kind = PF_WAKEUP; payload = f; break;
      case 20: kind = PF_WAKING; payload = f; break;
      case 114: kind = PF_WAKEUP_NEW; payload = f; break;
      case 235: kind = PF_NEWTASK; payload = f; break;
      case 236: kind = PF_RENAME; payload = f; exec = FALSE; break;
      case 237: kind = PF_RENAME; payload = f; exec = TRUE; break;
      case 238: kind = PF_EXIT; payload = f; break;
      case 239: kind = PF_FORK; payload = f; break;
      default: break;   /* the other ftrace events are not read */
      }
  });
  if (kind < 0)
    return TRUE;
  e = add_event (d, kind, (gint64) MIN (time, (guint64) WS_TIME_MAX), cpu);
  e->tid = tid;
  e->flags = (flags & TRACE_FLAG_HARDIRQ) ? PF_FLAG_HARDIRQ : 0;
  e->value = exec ? 1 : 0;
  if (!read_ftrace_payload (d, &c, &payload, e, kind == PF_SWITCH ? "sched_switch" : _("an ftrace event")))
    return FALSE;
  if (kind == PF_RENAME)
    e->value = 0;
  return TRUE;
}

/* A packed (or plain, repeated) varint field appended to @array. */
static gboolean
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

/*
 * FtraceEventBundle.compact_sched: sched_switch and sched_waking as
 * arrays, one entry per event; timestamps delta-encoded; comms as indices
 * into the bundle's intern_table.  The thread each event ran in is not
 * written (it is the CPU's last next_pid): the importer finds it.
 */
static gboolean
read_compact_sched (Decoder          *d,
                    const WsPbCursor *parent,
                    const WsPbField  *field,
                    guint             cpu)
{
  enum { TS, STATE, PID, COMM, WTS, WPID, WCOMM, WFLAGS, N_ARRAYS };
  static const guint numbers[N_ARRAYS] = { 1, 2, 3, 6, 7, 8, 11, 12 };
  GArray *arrays[N_ARRAYS];
  g_autoptr(GPtrArray) table = g_ptr_array_new ();
  WsPbCursor c;
  WsPbField f;
  gboolean ok = TRUE;
  guint64 t;

  if (field->wire != WS_PB_BYTES)
    return fail_at (d, field->offset, "compact_sched", _("an event that is not a message"));
  for (guint i = 0; i < N_ARRAYS; i++)
    arrays[i] = g_array_new (FALSE, FALSE, sizeof (guint64));
  ws_pb_cursor_sub (&c, parent, field);
  while (ok && ws_pb_next (&c, &f) == WS_PB_OK)
    {
      if (f.number == 5)
        g_ptr_array_add (table, (gpointer) intern_text (d, &f));
      for (guint i = 0; i < N_ARRAYS; i++)
        if (f.number == numbers[i])
          ok = append_values (d, &c, &f, arrays[i]);
    }
  if (ok && c.status != WS_PB_OK)
    ok = fail_cursor (d, &c, "compact_sched");

#define LEN(i) (arrays[i]->len)
#define AT(i, k) g_array_index (arrays[i], guint64, k)
  if (ok && (LEN (STATE) != LEN (TS) || LEN (PID) != LEN (TS) || LEN (COMM) != LEN (TS) ||
             LEN (WPID) != LEN (WTS) || LEN (WCOMM) != LEN (WTS) ||
             (LEN (WFLAGS) != 0 && LEN (WFLAGS) != LEN (WTS))))
    ok = fail_at (d, field->offset, "compact_sched", _("its arrays do not hold one entry per event"));

  t = 0;
  for (guint k = 0; ok && k < LEN (TS); k++)
    {
      guint64 index = AT (COMM, k);
      PfEvent *e;

      t += AT (TS, k);
      if (index >= table->len)
        {
          ok = fail_at (d, field->offset, "compact_sched", _("a comm index beyond its intern table"));
          break;
        }
      e = add_event (d, PF_SWITCH, (gint64) MIN (t, (guint64) WS_TIME_MAX), cpu);
      e->value = AT (STATE, k);
      e->b = (gint32) AT (PID, k);
      e->s2 = g_ptr_array_index (table, index);
    }
  t = 0;
  for (guint k = 0; ok && k < LEN (WTS); k++)
    {
      guint64 index = AT (WCOMM, k);
      PfEvent *e;

      t += AT (WTS, k);
      if (index >= table->len)
        {
          ok = fail_at (d, field->offset, "compact_sched", _("a comm index beyond its intern table"));
          break;
        }
      e = add_event (d, PF_WAKING, (gint64) MIN (t, (guint64) WS_TIME_MAX), cpu);
      e->a = (gint32) AT (WPID, k);
      e->s1 = g_ptr_array_index (table, index);
      if (LEN (WFLAGS) > 0 && (AT (WFLAGS, k) & TRACE_FLAG_HARDIRQ))
        e->flags = PF_FLAG_HARDIRQ;
    }
#undef LEN
#undef AT
  for (guint i = 0; i < N_ARRAYS; i++)
    g_array_unref (arrays[i]);
  return ok;
}

static gboolean
read_ftrace_bundle (Decoder          *d,
                    const WsPbCursor *parent,
                    const WsPbField  *field)
{
  WsPbCursor c;
  WsPbField f;
  guint cpu = 0;

  if (field->wire != WS_PB_BYTES)
    return fail_at (d, field->offset, _("an ftrace bundle"), _("an event that is not a message"));
  /* The CPU first, wherever it is written. */
  ws_pb_cursor_sub (&c, parent, field);
  FOR_EACH_FIELD (&c, &f, _("an ftrace bundle"), {
    if (f.number == 1 && f.wire == WS_PB_VARINT)
      cpu = (guint) MIN (f.value, G_MAXUINT16);
  });
  ws_pb_cursor_sub (&c, parent, field);
  FOR_EACH_FIELD (&c, &f, _("an ftrace bundle"), {
    if (f.number == 2 && !read_ftrace_event (d, &c, &f, cpu))
      return FALSE;
    if (f.number == 4 && !read_compact_sched (d, &c, &f, cpu))
      return FALSE;
  });
  return TRUE;
}

/* ---- process tree ---------------------------------------------------- */

static gboolean
read_process_tree (Decoder          *d,
                   const WsPbCursor *parent,
                   const WsPbField  *field,
                   gint64            time)
{
  WsPbCursor c, sub;
  WsPbField f, g;

  if (field->wire != WS_PB_BYTES)
    return fail_at (d, field->offset, _("a process tree"), _("an event that is not a message"));
  ws_pb_cursor_sub (&c, parent, field);
  FOR_EACH_FIELD (&c, &f, _("a process tree"), {
    gint32 id = -1, owner = -1, ppid = -1;
    const char *name = NULL;
    gboolean is_comm = FALSE;
    PfEvent *e;

    if ((f.number != 1 && f.number != 2) || f.wire != WS_PB_BYTES)
      continue;
    ws_pb_cursor_sub (&sub, &c, &f);
    /* Process: pid 1, ppid 2, cmdline 3, cmdline_is_comm 9;
     * Thread: tid 1, name 2, tgid 3. */
    FOR_EACH_FIELD (&sub, &g, _("a process tree"), {
      if (g.number == 1 && g.wire == WS_PB_VARINT)
        id = (gint32) g.value;
      else if (f.number == 1 && g.number == 2 && g.wire == WS_PB_VARINT)
        ppid = (gint32) g.value;
      else if (f.number == 1 && g.number == 3 && name == NULL)
        name = intern_text (d, &g);
      else if (f.number == 1 && g.number == 9)
        is_comm = g.value != 0;
      else if (f.number == 2 && g.number == 2)
        name = intern_text (d, &g);
      else if (f.number == 2 && g.number == 3 && g.wire == WS_PB_VARINT)
        owner = (gint32) g.value;
    });
    if (id <= 0)
      continue;
    if (f.number == 1 && name != NULL && !is_comm)
      {
        /* A command line's program, cut as the kernel cuts its comm. */
        const char *base = strrchr (name, '/');
        g_autofree char *comm = g_strndup (base ? base + 1 : name, 15);
        WsPbField cut = { .wire = WS_PB_BYTES, .data = (const guint8 *) comm, .len = strlen (comm) };

        if (!g_utf8_validate (comm, -1, NULL))
          cut.len = 0;
        name = intern_text (d, &cut);
      }
    e = add_event (d, PF_PROCESS_THREAD, time, 0);
    e->a = id;
    e->b = f.number == 1 ? id : owner;
    e->value = ppid > 0 ? (guint64) ppid + 1 : 0;
    e->s1 = name;
  });
  return TRUE;
}

/* ---- interned data and samples --------------------------------------- */

static const char *
lookup_string (GHashTable *table,
               guint64     iid)
{
  return g_hash_table_lookup (table, &iid);
}

/*
 * InternedData, read in passes so that what a frame names is known
 * whatever order the fields were written in: strings, then mappings
 * (their paths joined), then frames, then call stacks.
 */
static gboolean
read_interned (Decoder          *d,
               const WsPbCursor *parent,
               const WsPbField  *field,
               Sequence         *seq)
{
  static const guint order[] = { 5, 17, 19, 6, 7 };
  WsPbCursor c, sub;
  WsPbField f, g;

  if (field->wire != WS_PB_BYTES)
    return fail_at (d, field->offset, _("interned data"), _("an event that is not a message"));
  for (guint pass = 0; pass < G_N_ELEMENTS (order); pass++)
    {
      ws_pb_cursor_sub (&c, parent, field);
      FOR_EACH_FIELD (&c, &f, _("interned data"), {
        guint64 iid = 0, name_id = 0, mapping_id = 0;
        g_autoptr(GArray) ids = NULL;

        if (f.number != order[pass] || f.wire != WS_PB_BYTES)
          continue;
        ids = g_array_new (FALSE, FALSE, sizeof (guint64));
        ws_pb_cursor_sub (&sub, &c, &f);
        /* InternedString: iid 1, str 2; Mapping: iid 1, path_string_ids 7;
         * Frame: iid 1, function_name_id 2, mapping_id 3;
         * Callstack: iid 1, frame_ids 2 (caller first). */
        FOR_EACH_FIELD (&sub, &g, _("interned data"), {
          if (g.number == 1 && g.wire == WS_PB_VARINT)
            iid = g.value;
          else if ((f.number == 5 || f.number == 17) && g.number == 2 && g.wire == WS_PB_BYTES)
            {
              g_autofree char *text = g_utf8_make_valid ((const char *) g.data, (gssize) g.len);
              /* Each kind of interned string has its own iids. */
              g_hash_table_replace (f.number == 5 ? seq->names : seq->paths, key_new (iid), g_steal_pointer (&text));
            }
          else if (f.number == 6 && g.number == 2 && g.wire == WS_PB_VARINT)
            name_id = g.value;
          else if (f.number == 6 && g.number == 3 && g.wire == WS_PB_VARINT)
            mapping_id = g.value;
          else if ((f.number == 19 && g.number == 7) || (f.number == 7 && g.number == 2))
            {
              if (!append_values (d, &sub, &g, ids))
                return FALSE;
            }
        });
        if (f.number == 19)
          {
            GString *path = g_string_new (NULL);

            for (guint i = 0; i < ids->len; i++)
              {
                const char *part = lookup_string (seq->paths, g_array_index (ids, guint64, i));

                /* "/usr/lib/libc.so.6" from usr, lib, libc.so.6; a lone
                 * "[kernel.kallsyms]" stays as it is. */
                if (!(ids->len == 1 && part != NULL && part[0] == '['))
                  g_string_append_c (path, '/');
                g_string_append (path, part ? part : "?");
              }
            g_hash_table_replace (seq->mappings, key_new (iid), g_string_free (path, FALSE));
          }
        else if (f.number == 6)
          {
            const char *function = name_id ? lookup_string (seq->names, name_id) : NULL;
            const char *module = mapping_id ? lookup_string (seq->mappings, mapping_id) : NULL;
            WsFrameId frame;

            function = function ? function : "[unknown]";
            module = module ? module : "[unknown]";
            frame = ws_stack_table_intern_frame_len (d->stacks, function, strlen (function), module,
                                                     strlen (module));
            g_hash_table_replace (seq->frames, key_new (iid), GUINT_TO_POINTER (frame + 1));
          }
        else if (f.number == 7)
          {
            WsFrameId frames[MAX_FRAMES];
            guint n = 0;

            for (guint i = 0; i < ids->len && n < MAX_FRAMES; i++)
              {
                guint64 frame_iid = g_array_index (ids, guint64, i);
                guint frame = GPOINTER_TO_UINT (g_hash_table_lookup (seq->frames, &frame_iid));

                if (frame == 0)
                  frame = ws_stack_table_intern_frame_len (d->stacks, "[unknown]", 9, "[unknown]", 9) + 1;
                frames[n++] = frame - 1;
              }
            g_hash_table_replace (seq->callstacks, key_new (iid),
                                  GUINT_TO_POINTER (ws_stack_table_intern_stack (d->stacks, frames, n) + 1));
          }
      });
    }
  return TRUE;
}

/* The name perf gives the counters Perfetto can sample on. */
static const char *
counter_name (guint64 counter)
{
  static const char * const names[] = {
    [1] = "cpu-clock", [2] = "page-faults", [3] = "task-clock", [4] = "context-switches",
    [5] = "cpu-migrations", [6] = "minor-faults", [7] = "major-faults", [8] = "alignment-faults",
    [9] = "emulation-faults", [10] = "cycles", [11] = "instructions", [12] = "cache-references",
    [13] = "cache-misses", [14] = "branch-instructions", [15] = "branch-misses", [16] = "bus-cycles",
    [17] = "stalled-cycles-frontend", [18] = "stalled-cycles-backend", [19] = "ref-cycles",
    [20] = "dummy",
  };

  return counter < G_N_ELEMENTS (names) && names[counter] ? names[counter] : "perf-sample";
}

/* TracePacketDefaults.perf_sample_defaults.timebase: what samples are. */
static gboolean
read_defaults (Decoder          *d,
               const WsPbCursor *parent,
               const WsPbField  *field,
               Sequence         *seq)
{
  WsPbCursor c, sub, tb, tp;
  WsPbField f, g, h, k;
  g_autofree char *name = NULL;
  g_autofree char *tracepoint = NULL;
  guint64 counter = 0;

  if (field->wire != WS_PB_BYTES)
    return TRUE;
  ws_pb_cursor_sub (&c, parent, field);
  FOR_EACH_FIELD (&c, &f, _("packet defaults"), {
    if (f.number != 12 || f.wire != WS_PB_BYTES)
      continue;
    ws_pb_cursor_sub (&sub, &c, &f);
    FOR_EACH_FIELD (&sub, &g, _("packet defaults"), {
      if (g.number != 1 || g.wire != WS_PB_BYTES)
        continue;
      ws_pb_cursor_sub (&tb, &sub, &g);
      /* Timebase: counter 4, tracepoint 3 (name 1), name 10. */
      FOR_EACH_FIELD (&tb, &h, _("packet defaults"), {
        if (h.number == 4 && h.wire == WS_PB_VARINT)
          counter = h.value;
        else if (h.number == 10 && h.wire == WS_PB_BYTES)
          g_free (name), name = g_utf8_make_valid ((const char *) h.data, (gssize) h.len);
        else if (h.number == 3 && h.wire == WS_PB_BYTES)
          {
            ws_pb_cursor_sub (&tp, &tb, &h);
            FOR_EACH_FIELD (&tp, &k, _("packet defaults"), {
              if (k.number == 1 && k.wire == WS_PB_BYTES)
                g_free (tracepoint), tracepoint = g_utf8_make_valid ((const char *) k.data, (gssize) k.len);
            });
          }
      });
      seq->timebase_set = TRUE;
    });
  });
  if (!seq->timebase_set)
    return TRUE;
  if (tracepoint != NULL)
    {
      /* "sched:sched_switch" (or "sched/sched_switch"): the samples are
       * that event's call stacks. */
      const char *event = strpbrk (tracepoint, ":/");

      event = event ? event + 1 : tracepoint;
      seq->sample_kind = PF_STACK;
      seq->stack_of = g_str_equal (event, "sched_switch") ? PF_SWITCH
                      : g_str_equal (event, "sched_waking") ? PF_WAKING
                      : g_str_equal (event, "sched_wakeup") ? PF_WAKEUP
                      : g_str_equal (event, "sched_wakeup_new") ? PF_WAKEUP_NEW
                      : g_str_equal (event, "sched_process_fork") ? PF_FORK
                      : g_str_equal (event, "sched_process_exit") ? PF_EXIT
                      : g_str_equal (event, "task_newtask") ? PF_NEWTASK : -1;
    }
  else
    {
      seq->sample_kind = PF_SAMPLE;
      seq->sample_name = ws_trace_intern_string (d->trace, name ? name : counter_name (counter));
    }
  return TRUE;
}

static gboolean
read_perf_sample (Decoder          *d,
                  const WsPbCursor *parent,
                  const WsPbField  *field,
                  Sequence         *seq,
                  gint64            time)
{
  WsPbCursor c;
  WsPbField f;
  guint cpu = 0;
  gint32 pid = -1, tid = -1;
  guint64 callstack = 0, count = 0;
  gboolean has_count = FALSE, not_a_sample = FALSE;
  gpointer last;
  PfEvent *e;

  if (field->wire != WS_PB_BYTES)
    return fail_at (d, field->offset, _("a perf sample"), _("an event that is not a message"));
  ws_pb_cursor_sub (&c, parent, field);
  FOR_EACH_FIELD (&c, &f, _("a perf sample"), {
    switch (f.number)
      {
      case 1: cpu = (guint) MIN (f.value, G_MAXUINT16); break;
      case 2: pid = (gint32) f.value; break;
      case 3: tid = (gint32) f.value; break;
      case 4: callstack = f.value; break;
      case 6: count = f.value; has_count = TRUE; break;
      case 17: case 18: case 19: not_a_sample = TRUE; break;   /* data loss, skips, producer events */
      default: break;
      }
  });
  if (not_a_sample || tid < 0)
    return TRUE;
  if (seq->sample_kind == PF_STACK && seq->stack_of < 0)
    {
      d->out->n_samples_dropped++;   /* the stack of an event not read */
      return TRUE;
    }
  e = add_event (d, seq->sample_kind, time, cpu);
  e->tid = tid;
  e->pid = pid;
  e->name = seq->sample_name;
  e->a = seq->stack_of;
  if (callstack != 0)
    {
      guint stack = GPOINTER_TO_UINT (g_hash_table_lookup (seq->callstacks, &callstack));

      e->stack = stack ? stack - 1 : WS_STACK_EMPTY;
    }
  /* The timebase count is cumulative per CPU: the period is its step. */
  e->value = 1;
  if (has_count && seq->sample_kind == PF_SAMPLE)
    {
      guint64 before = g_hash_table_lookup_extended (seq->counts, GUINT_TO_POINTER (cpu), NULL, &last)
                       ? (guint64) GPOINTER_TO_SIZE (last) : 0;

      e->value = count >= before ? MAX (count - before, 1) : MAX (count, 1);
      g_hash_table_insert (seq->counts, GUINT_TO_POINTER (cpu), GSIZE_TO_POINTER ((gsize) count));
    }
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
