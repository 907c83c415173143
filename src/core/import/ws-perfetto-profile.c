/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Perfetto's profiling data (ws-perfetto-events.c lists the field
 * numbers): interned frames and call stacks, the timebase that says what
 * a sequence's PerfSamples sample, and the samples.
 */
#include "config.h"

#include <string.h>

#include <glib/gi18n-lib.h>

#include "ws-error.h"
#include "ws-perfetto-private.h"
#include "ws-trace-private.h"

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
gboolean
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
gboolean
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

gboolean
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
