/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Perfetto's ftrace data (ws-perfetto-events.c lists the field numbers):
 * FtraceEventBundle's events, plain and compact, and the ProcessTree.
 */
#include "config.h"

#include <string.h>

#include <glib/gi18n-lib.h>

#include "ws-error.h"
#include "ws-perfetto-private.h"
#include "ws-trace-private.h"

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

gboolean
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

gboolean
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
