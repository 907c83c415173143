/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The perf importer's first pass: `perf script` text, read in large
 * buffers by a hand-written parser (memchr for lines, numbers parsed by
 * hand, frames interned straight from the byte slices, whole stack blocks
 * looked up in a cache), becomes one 32-byte record per event header.
 */
#include "config.h"

#include <glib/gi18n-lib.h>

#include "ws-perf-private.h"
#include "ws-block-requests.h"

static void
task_info_free (gpointer data)
{
  TaskInfo *t = data;

  g_free (t->name);
  g_free (t);
}

void
ws_perf_parser_init (Parser       *p,
             const char   *display_name,
             WsTrace      *trace)
{
  memset (p, 0, sizeof *p);
  p->display_name = display_name;
  p->trace = trace;
  p->stacks = ws_trace_get_stack_table (trace);
  p->records.chunks = g_ptr_array_new_with_free_func (g_free);
  p->records.max_time = G_MININT64;
  p->names = g_array_new (FALSE, TRUE, sizeof (ThreadName));
  p->tasks = g_hash_table_new_full (g_direct_hash, g_direct_equal, NULL, task_info_free);
  p->comm_changes = g_array_new (FALSE, FALSE, sizeof (CommChange));
  p->lifetimes = g_hash_table_new_full (g_direct_hash, g_direct_equal, NULL, (GDestroyNotify) g_array_unref);
  p->frames_cap = 256;
  p->frames = g_new (WsFrameId, p->frames_cap);
  for (guint i = 0; i < TID_CACHE_SIZE; i++)
    p->tid_cache[i].tid = G_MININT32;   /* empty: perf itself may print -1 */
  /* Only for measuring the worst case (every stack new); see tests/bench. */
  p->no_block_cache = g_getenv ("WS_PERF_IMPORTER_NO_STACK_CACHE") != NULL;
}

void
ws_perf_parser_clear (Parser *p)
{
  if (p->records.chunks)
    g_ptr_array_unref (p->records.chunks);
  for (guint i = 0; p->names && i < p->names->len; i++)
    {
      g_free (g_array_index (p->names, ThreadName, i).name);
      g_free (g_array_index (p->names, ThreadName, i).comm);
    }
  for (guint i = 0; p->comm_changes && i < p->comm_changes->len; i++)
    g_free (g_array_index (p->comm_changes, CommChange, i).name);
  g_clear_pointer (&p->comm_changes, g_array_unref);
  if (p->names)
    g_array_unref (p->names);
  g_clear_pointer (&p->tasks, g_hash_table_unref);
  g_clear_pointer (&p->lifetimes, g_hash_table_unref);
  g_free (p->frames);
  g_free (p->frame_irq);
  g_free (p->stack_irq);
  g_free (p->block_cache.entries);
  g_free (p->block_cache.text);
  for (guint i = 0; i < p->n_event_names; i++)
    g_free (p->event_names[i].name);
}

/*
 * @tid, bound to thread @known of another process, now names a thread of
 * @pid: bind it to that process's thread of this id if there was one (a
 * file CPU by CPU goes back and forth between them), else to a new
 * thread.  Only reused ids get a list of their threads.
 */
static void
switch_lifetime (Parser *p,
                 gint32  tid,
                 gint32  pid,
                 guint   known)
{
  GArray *threads = g_hash_table_lookup (p->lifetimes, GINT_TO_POINTER (tid));
  guint index;

  if (threads == NULL)
    {
      threads = g_array_new (FALSE, FALSE, sizeof (guint));
      g_array_append_val (threads, known);
      g_hash_table_insert (p->lifetimes, GINT_TO_POINTER (tid), threads);
    }
  for (guint i = 0; i < threads->len; i++)
    {
      index = g_array_index (threads, guint, i);
      if (ws_trace_get_thread (p->trace, index)->pid == pid)
        {
          ws_trace_bind_tid (p->trace, tid, index);
          return;
        }
    }
  ws_trace_forget_tid (p->trace, tid);
  index = ws_trace_ensure_thread (p->trace, tid, pid);
  g_array_append_val (threads, index);
}

/* Every importer message starts with "FILE:LINE: ". */
static inline guint32
lookup_thread (Parser *p,
               gint32  tid,
               gint32  pid)
{
  TidCacheEntry *c = &p->tid_cache[(guint32) tid & (TID_CACHE_SIZE - 1)];
  guint known;

  if (c->tid == tid && (pid < 0 || (c->pid_known && c->pid == pid)))
    return c->index;

  /* The kernel gives an ended thread's id to a new thread, of another
   * process too: a new pid under a known tid is another thread.  (Not
   * perf's -1, "a thread it no longer knows", nor the idle task's 0.) */
  if (tid > 0 && pid >= 0 && (known = ws_trace_find_thread (p->trace, tid)) != WS_NONE &&
      ws_trace_get_thread (p->trace, known)->pid >= 0 &&
      ws_trace_get_thread (p->trace, known)->pid != pid)
    switch_lifetime (p, tid, pid, known);

  c->tid = tid;
  c->index = ws_trace_ensure_thread (p->trace, tid, pid);
  c->pid = pid;
  c->pid_known = pid >= 0;
  if (c->index >= p->names->len)
    g_array_set_size (p->names, c->index + 1);
  return c->index;
}

/* perf writes ":TID" when it does not know a thread's comm. */
static inline gboolean
is_placeholder_comm (const char *name,
                     gsize       len)
{
  if (len < 2 || name[0] != ':')
    return FALSE;
  for (gsize i = 1; i < len; i++)
    if (!g_ascii_isdigit (name[i]))
      return FALSE;
  return TRUE;
}

/* Thread names: the last one in time wins. */
static inline void
set_thread_name (Parser     *p,
                 guint32     thread,
                 gint32      tid,
                 const char *name,
                 gsize       len,
                 gint64      time)
{
  ThreadName *n;

  if (tid == 0 || len == 0 || is_placeholder_comm (name, len))
    return;

  n = &g_array_index (p->names, ThreadName, thread);
  if (time < n->name_time)
    return;
  n->name_time = time;
  if (n->name != NULL && n->name_len == len && memcmp (n->name, name, len) == 0)
    return;
  g_free (n->name);
  n->name = g_strndup (name, len);
  n->name_len = len;
}

/* The comm an event header names, when it is not the one the thread's
 * previous header named (exec renamed it). */
static inline void
note_comm (Parser     *p,
           guint32     thread,
           gint32      tid,
           const char *comm,
           gsize       len,
           gint64      time)
{
  ThreadName *n;
  CommChange change;

  if (tid == 0 || len == 0 || is_placeholder_comm (comm, len))
    return;
  n = &g_array_index (p->names, ThreadName, thread);
  if (n->comm != NULL && n->comm_len == len && memcmp (n->comm, comm, len) == 0)
    return;
  g_free (n->comm);
  n->comm = g_strndup (comm, len);
  n->comm_len = len;
  n->n_comms++;
  change.thread = thread;
  change.time = time;
  change.name = g_strndup (comm, len);
  g_array_append_val (p->comm_changes, change);
}

/* Four independent multiply chains, so the CPU overlaps them; each step
 * (h ^ w) * K is a bijection, the final mix spreads the high bits down. */
static inline guint64
hash_block (const char *s,
            gsize       len)
{
  const guint64 K = 0x9E3779B97F4A7C15ull;
  guint64 h0 = len, h1 = 0x243F6A8885A308D3ull, h2 = 0x13198A2E03707344ull, h3 = 0xA4093822299F31D0ull;
  guint64 w0, w1, w2, w3, h;

  for (; len >= 32; s += 32, len -= 32)
    {
      memcpy (&w0, s, 8);
      memcpy (&w1, s + 8, 8);
      memcpy (&w2, s + 16, 8);
      memcpy (&w3, s + 24, 8);
      h0 = (h0 ^ w0) * K;
      h1 = (h1 ^ w1) * K;
      h2 = (h2 ^ w2) * K;
      h3 = (h3 ^ w3) * K;
    }
  for (; len >= 8; s += 8, len -= 8)
    {
      memcpy (&w0, s, 8);
      h0 = (h0 ^ w0) * K;
    }
  w0 = 0;
  memcpy (&w0, s, len);
  h0 = (h0 ^ w0) * K;

  h = h0 ^ (h1 >> 7 | h1 << 57) ^ (h2 >> 19 | h2 << 45) ^ (h3 >> 31 | h3 << 33);
  h ^= h >> 32;
  h *= 0xD6E8FEB86659FD93ull;
  h ^= h >> 32;
  return h ? h : 1;
}

static const BlockEntry *
block_cache_lookup (BlockCache *c,
                    const char *s,
                    gsize       len,
                    guint64     hash)
{
  if (c->entries == NULL)
    return NULL;
  for (gsize i = hash & c->mask; c->entries[i].hash != 0; i = (i + 1) & c->mask)
    {
      const BlockEntry *e = &c->entries[i];
      if (e->hash == hash && e->len == len && memcmp (c->text + e->offset, s, len) == 0)
        return e;
    }
  return NULL;
}

static void
block_cache_insert (BlockCache *c,
                    const char *s,
                    gsize       len,
                    guint64     hash,
                    guint32     stack,
                    guint32     lines)
{
  gsize i;

  if (c->text_len + len > BLOCK_CACHE_MAX_BYTES || len > G_MAXUINT32)
    return;

  if (c->entries == NULL || (c->n_entries + 1) * 2 > c->mask + 1)
    {
      gsize new_size = c->entries ? (c->mask + 1) * 2 : 4096;
      BlockEntry *entries = g_new0 (BlockEntry, new_size);

      for (gsize k = 0; c->entries != NULL && k <= c->mask; k++)
        if (c->entries[k].hash != 0)
          {
            for (i = c->entries[k].hash & (new_size - 1); entries[i].hash != 0; i = (i + 1) & (new_size - 1))
              ;
            entries[i] = c->entries[k];
          }
      g_free (c->entries);
      c->entries = entries;
      c->mask = new_size - 1;
    }

  if (c->text_len + len > c->text_cap)
    {
      c->text_cap = MAX (c->text_cap * 2, c->text_len + len + 64 * 1024);
      c->text_cap = MIN (c->text_cap, (gsize) BLOCK_CACHE_MAX_BYTES);
      c->text = g_realloc (c->text, c->text_cap);
    }

  for (i = hash & c->mask; c->entries[i].hash != 0; i = (i + 1) & c->mask)
    ;
  c->entries[i].hash = hash;
  c->entries[i].offset = c->text_len;
  c->entries[i].len = len;
  c->entries[i].stack = stack;
  c->entries[i].lines = lines;
  memcpy (c->text + c->text_len, s, len);
  c->text_len += len;
  c->n_entries++;
}
static gboolean
has_control_bytes (const char *s,
                   const char *end)
{
  for (; s < end; s++)
    {
      guchar c = *s;
      if (c < 0x20 && c != '\t' && c != '\r')
        return TRUE;
      if (c == 0x7f)
        return TRUE;
    }
  return FALSE;
}

/*
 * Tracepoint names are "subsystem:event" (sched:sched_switch,
 * sdt_postgresql:transaction__start); hardware/software events are plain
 * (cycles, cpu-clock), possibly with ":u"/":k"-style modifiers.
 */
static gboolean
is_tracepoint_name (const char *name,
                    gsize       len)
{
  const char *colon = memchr (name, ':', len);

  if (colon == NULL)
    return FALSE;
  for (const char *s = colon + 1; s < name + len; s++)
    if (strchr ("ukhHGIpPSDWe", *s) == NULL)
      return TRUE;
  return FALSE;
}

/*
 * Hardware and software events (cpu-clock, task-clock, cycles…) are CPU
 * samples whatever their period (in frequency mode the first ones have
 * period 1); tracepoints stay what they are even when recorded with -F and
 * a period > 1 (traces/README.md, "Why not -F 499").
 */
static RecordType
lookup_event_name (Parser     *p,
                   const char *name,
                   gsize       len,
                   guint32    *marker_id)
{
  EventName *e;
  g_autofree char *copy = NULL;
  RecordType type;

  for (guint i = 0; i < p->n_event_names; i++)
    {
      e = &p->event_names[i];
      if (e->len == len && memcmp (e->name, name, len) == 0)
        {
          *marker_id = e->id;
          return e->type;
        }
    }

  copy = g_strndup (name, len);
  *marker_id = WS_NONE;
  if (strcmp (copy, "sched:sched_switch") == 0)
    type = REC_SWITCH;
  else if (strcmp (copy, "sched:sched_waking") == 0)
    type = REC_WAKING;
  else if (strcmp (copy, "sched:sched_wakeup") == 0 ||
           strcmp (copy, "sched:sched_wakeup_new") == 0)
    type = REC_WAKEUP;
  else if (!is_tracepoint_name (name, len))
    {
      /* Samples keep their event's name: profiles of several events
       * (cycles and instructions) are told apart by it. */
      type = REC_SAMPLE;
      *marker_id = ws_trace_intern_string (p->trace, copy);
    }
  else
    {
      type = REC_MARKER;
      *marker_id = ws_trace_intern_string (p->trace, copy);
    }

  /* Past the table's size (dozens of distinct events), look up by string. */
  if (p->n_event_names < N_EVENT_NAMES)
    {
      e = &p->event_names[p->n_event_names++];
      e->len = len;
      e->type = type;
      e->id = *marker_id;
      e->name = g_steal_pointer (&copy);
    }
  return type;
}

static inline const char *
find (const char *haystack,
      const char *end,
      const char *needle,
      gsize       needle_len)
{
  const char *s = haystack;

  while (end - s >= (gssize) needle_len && (s = memchr (s, needle[0], end - s)) != NULL)
    {
      if (end - s < (gssize) needle_len)
        return NULL;
      if (memcmp (s, needle, needle_len) == 0)
        return s;
      s++;
    }
  return NULL;
}

#define FIND(h, e, lit) find ((h), (e), lit, sizeof lit - 1)

static gboolean
parse_switch (Parser       *p,
              const Header *h,
              const char   *fields,
              const char   *end,
              GError      **error)
{
  const char *prev_comm, *prev_comm_end, *q, *next_comm, *next_comm_end, *state;
  gint32 prev_pid, next_pid;

  if ((prev_comm = FIND (fields, end, "prev_comm=")) == NULL)
    return ws_perf_set_error (error, p->display_name, p->line_no, WS_ERROR_MISSING_FIELD,
                      _("sched_switch without %s"), "prev_comm");
  prev_comm += 10;
  if ((prev_comm_end = FIND (prev_comm, end, " prev_pid=")) == NULL ||
      parse_i32 (prev_comm_end + 10, end, &prev_pid) == NULL)
    return ws_perf_set_error (error, p->display_name, p->line_no, WS_ERROR_MISSING_FIELD,
                      _("sched_switch without %s"), "prev_pid");
  if ((q = FIND (prev_comm_end, end, " prev_state=")) == NULL || q + 12 >= end)
    return ws_perf_set_error (error, p->display_name, p->line_no, WS_ERROR_MISSING_FIELD,
                      _("sched_switch without %s"), "prev_state");
  state = q + 12;
  if ((next_comm = FIND (state, end, "==> next_comm=")) == NULL)
    return ws_perf_set_error (error, p->display_name, p->line_no, WS_ERROR_MISSING_FIELD,
                      _("sched_switch without %s"), "next_comm");
  next_comm += 14;
  if ((next_comm_end = FIND (next_comm, end, " next_pid=")) == NULL ||
      parse_i32 (next_comm_end + 10, end, &next_pid) == NULL)
    return ws_perf_set_error (error, p->display_name, p->line_no, WS_ERROR_MISSING_FIELD,
                      _("sched_switch without %s"), "next_pid");

  p->pending.a = lookup_thread (p, prev_pid, prev_pid == h->tid ? h->pid : -1);
  p->pending.b = lookup_thread (p, next_pid, -1);
  /* The kernel's states are ASCII letters (S, D, R+, I…); a byte that is
   * not one would make a state no JSON trace can hold: unknown, '?'. */
  p->pending.state = g_ascii_isgraph (*state) ? *state : '?';
  set_thread_name (p, p->pending.a, prev_pid, prev_comm, prev_comm_end - prev_comm, h->time);
  set_thread_name (p, p->pending.b, next_pid, next_comm, next_comm_end - next_comm, h->time);
  return TRUE;
}

static gboolean
parse_wake (Parser       *p,
            const Header *h,
            const char   *fields,
            const char   *end,
            GError      **error)
{
  const char *comm, *comm_end;
  gint32 pid;

  if ((comm = FIND (fields, end, "comm=")) == NULL)
    return ws_perf_set_error (error, p->display_name, p->line_no, WS_ERROR_MISSING_FIELD,
                      _("wake-up event without %s"), "comm");
  comm += 5;
  if ((comm_end = FIND (comm, end, " pid=")) == NULL ||
      parse_i32 (comm_end + 5, end, &pid) == NULL)
    return ws_perf_set_error (error, p->display_name, p->line_no, WS_ERROR_MISSING_FIELD,
                      _("wake-up event without %s"), "pid");

  p->pending.a = lookup_thread (p, pid, -1);
  set_thread_name (p, p->pending.a, pid, comm, comm_end - comm, h->time);
  return TRUE;
}

static TaskInfo *
ensure_task (Parser *p,
             gint32  tid,
             gint32  pid)
{
  TaskInfo *t = g_hash_table_lookup (p->tasks, GINT_TO_POINTER (tid));

  if (t == NULL)
    {
      t = g_new0 (TaskInfo, 1);
      t->pid = -1;
      t->name_time = G_MININT64;
      g_hash_table_insert (p->tasks, GINT_TO_POINTER (tid), t);
    }
  if (pid >= 0)
    t->pid = pid;
  return t;
}

/* A thread @tid of process @pid took the name @name (exec, prctl). */
static void
task_comm (Parser     *p,
           gint32      pid,
           gint32      tid,
           const char *name,
           gsize       len,
           gint64      time)
{
  TaskInfo *t = ensure_task (p, tid, pid);

  if (time >= t->name_time && !is_placeholder_comm (name, len))
    {
      g_free (t->name);
      t->name = g_strndup (name, len);
      t->name_time = time;
    }
}

/* Thread @tid of process @pid (-1: not known) was created (@fork) or
 * ended; @ppid is its parent process (-1: not known). */
static void
task_fork_or_exit (Parser  *p,
                   gboolean fork,
                   gint32   pid,
                   gint32   tid,
                   gint32   ppid,
                   gint64   time)
{
  /* A thread forked under an id already seen: the earlier thread has
   * ended (same pid too, when a process id came round again).  In
   * time order only: CPU by CPU, a child may come before its fork. */
  if (fork && tid > 0 && (p->in_time_order || !p->records.unsorted) &&
      ws_trace_find_thread (p->trace, tid) != WS_NONE)
    {
      TidCacheEntry *c = &p->tid_cache[(guint32) tid & (TID_CACHE_SIZE - 1)];

      ws_trace_forget_tid (p->trace, tid);
      if (c->tid == tid)
        c->tid = G_MININT32;
      g_hash_table_remove (p->tasks, GINT_TO_POINTER (tid));
      g_hash_table_remove (p->lifetimes, GINT_TO_POINTER (tid));
    }
  ensure_task (p, tid, pid);
  /* The parent, for the process tree the thread picker reads; a thread of
   * the same process is no parent. */
  if (pid >= 0 && ppid >= 0 && ppid != pid)
    ws_trace_set_process_parent (p->trace, pid, ppid);
  if (!fork)
    ws_trace_set_thread_exit (p->trace, tid, time);
}

/*
 * --show-task-events lines: PERF_RECORD_COMM[ exec]: NAME:PID/TID and
 * PERF_RECORD_FORK(PID:TID):(PPID:PTID), PERF_RECORD_EXIT(...).  They are
 * not events, only thread names and pids; a malformed one is skipped.
 */
static void
parse_task_line (Parser     *p,
                 const char *s,
                 const char *end,
                 gint64      time)
{
  gint32 pid, tid;
  const char *q;

  if (end - s > 16 && memcmp (s, "PERF_RECORD_COMM", 16) == 0)
    {
      const char *name, *colon;

      if ((q = FIND (s, end, ": ")) == NULL)
        return;
      name = q + 2;
      for (colon = end - 1; colon > name && *colon != ':'; colon--)
        ;
      if (colon <= name)
        return;
      if ((q = parse_i32 (colon + 1, end, &pid)) == NULL || q >= end || *q != '/' ||
          parse_i32 (q + 1, end, &tid) == NULL)
        return;
      task_comm (p, pid, tid, name, colon - name, time);
    }
  else if (end - s > 17 && (memcmp (s, "PERF_RECORD_FORK(", 17) == 0 ||
                            memcmp (s, "PERF_RECORD_EXIT(", 17) == 0))
    {
      gint32 ppid = -1, ptid;

      if ((q = parse_i32 (s + 17, end, &pid)) == NULL || q >= end || *q != ':' ||
          (q = parse_i32 (q + 1, end, &tid)) == NULL)
        return;
      /* "(PID:TID):(PPID:PTID)" */
      if (!(end - q > 3 && q[0] == ')' && q[1] == ':' && q[2] == '(' &&
            (q = parse_i32 (q + 3, end, &ppid)) != NULL && q < end && *q == ':' &&
            parse_i32 (q + 1, end, &ptid) != NULL))
        ppid = -1;
      task_fork_or_exit (p, s[12] == 'F', pid, tid, ppid, time);
    }
}

/* Makes room in a per-frame or per-stack cache (0 = not yet known) for
 * @index; only reached when a new id first appears. */
static void
grow_irq_cache (guint8 **cache,
                gsize   *cache_len,
                guint    index)
{
  gsize len = MAX (*cache_len * 2, (gsize) index + 1024);

  *cache = g_realloc (*cache, len);
  memset (*cache + *cache_len, 0, len - *cache_len);
  *cache_len = len;
}

static inline gboolean
frame_is_interrupt (Parser    *p,
                    WsFrameId  frame)
{
  if (frame >= p->frame_irq_len)
    grow_irq_cache (&p->frame_irq, &p->frame_irq_len, frame);
  if (p->frame_irq[frame] == 0)
    {
      const WsFrame *f = ws_stack_table_get_frame (p->stacks, frame);
      p->frame_irq[frame] = ws_perf_importer_is_interrupt_frame (f->function) ? 2 : 1;
    }
  return p->frame_irq[frame] == 2;
}

static gboolean
stack_is_interrupt (Parser    *p,
                    WsStackId  stack)
{
  if (stack >= p->stack_irq_len)
    grow_irq_cache (&p->stack_irq, &p->stack_irq_len, stack);
  if (p->stack_irq[stack] == 0)
    {
      guint n;
      const WsFrameId *frames = ws_stack_table_get_stack (p->stacks, stack, &n);
      gboolean irq = FALSE;

      for (guint i = 0; i < n && !irq; i++)
        irq = frame_is_interrupt (p, frames[i]);
      p->stack_irq[stack] = irq ? 2 : 1;
    }
  return p->stack_irq[stack] == 2;
}

/*
 * The event's last frame was read: intern its stack and keep the record.
 * @blank: the blank line that ended the event, or %NULL if something else
 * (a header, the end of the input) did.
 */
static void
flush_pending (Parser     *p,
               const char *blank)
{
  guint n = p->n_frames;
  guint type = p->pending.type;

  if (!p->have_pending)
    return;
  p->have_pending = FALSE;

  if (!p->stack_done)
    {
      /* perf prints the leaf first; Waitscope stores the caller first. */
      for (guint i = 0; i < n / 2; i++)
        {
          WsFrameId tmp = p->frames[i];
          p->frames[i] = p->frames[n - 1 - i];
          p->frames[n - 1 - i] = tmp;
        }
      p->pending.stack = ws_stack_table_intern_stack (p->stacks, p->frames, n);

      /* Only a block read whole, up to its blank line, is the stack's text. */
      if (p->block != NULL && blank == p->block + p->block_len && p->block_lines == n)
        block_cache_insert (&p->block_cache, p->block, p->block_len, p->block_hash,
                            p->pending.stack, p->block_lines);
    }
  p->n_frames = 0;
  p->block = NULL;
  p->stack_done = FALSE;

  if ((type == REC_WAKING || type == REC_WAKEUP) && stack_is_interrupt (p, p->pending.stack))
    p->pending.type |= REC_INTERRUPT;

  record_list_append (&p->records, &p->pending);
}

/*
 * Right after an event header: if its stack lines are in the buffer up to
 * the blank line, look the whole block up.  Returns the bytes consumed (the
 * frame lines, up to the blank line) on a hit, 0 otherwise.
 */
static gsize
try_stack_block (Parser     *p,
                 const char *s,
                 gsize       avail)
{
  const char *blank;
  const BlockEntry *e;
  gsize len;
  guint64 hash;

  if (avail == 0 || s[0] != '\t' || !p->have_pending || p->no_block_cache)
    return 0;

  /* Line by line (memchr is vectorised, glibc's memmem is not). */
  for (blank = s;;)
    {
      const char *nl = memchr (blank, '\n', s + avail - blank);
      if (nl == NULL || nl + 1 >= s + avail)
        return 0;
      blank = nl + 1;
      if (*blank == '\n')
        break;
    }
  len = blank - s;
  hash = hash_block (s, len);

  if ((e = block_cache_lookup (&p->block_cache, s, len, hash)) != NULL)
    {
      p->pending.stack = e->stack;
      p->stack_done = TRUE;
      p->line_no += e->lines;
      p->stats.stack_cache_hits++;
      return len;
    }

  p->block = s;
  p->block_len = len;
  p->block_hash = hash;
  p->block_lines = 0;
  return 0;
}

/* "__d_lookup_rcu+0x32" -> "__d_lookup_rcu": perf's symoff, which would
 * make every sampled address a function of its own. */
static const char *
strip_offset (const char *sym,
              const char *end)
{
  const char *s = end;

  while (s > sym && g_ascii_isxdigit (s[-1]))
    s--;
  if (s < end && s - sym >= 3 && s[-1] == 'x' && s[-2] == '0' && s[-3] == '+')
    return s - 3;
  return end;
}

/* Interns "ADDRESS SYMBOL (MODULE)" (any part may be missing) from @s and
 * adds it to the pending event's frames. */
static void
add_frame (Parser     *p,
           const char *s,
           const char *end)
{
  const char *sym, *sym_end = end, *mod = NULL, *mod_end = NULL;

  while (s < end && (*s == ' ' || *s == '\t'))
    s++;
  while (s < end && g_ascii_isxdigit (*s))
    s++;
  if (s < end && *s == ' ')
    s++;
  sym = s;

  if (end > sym && end[-1] == ')')
    {
      /* The module is the last balanced "(...)": "/memfd:x (deleted)". */
      int depth = 0;
      const char *o;

      for (o = end - 1; o >= sym; o--)
        {
          if (*o == ')')
            depth++;
          else if (*o == '(' && --depth == 0)
            break;
        }
      if (o >= sym)
        {
          mod = o + 1;
          mod_end = end - 1;
          sym_end = o;
          while (sym_end > sym && sym_end[-1] == ' ')
            sym_end--;
        }
    }
  sym_end = strip_offset (sym, sym_end);

  if (p->n_frames == p->frames_cap)
    {
      p->frames_cap *= 2;
      p->frames = g_renew (WsFrameId, p->frames, p->frames_cap);
    }
  /* Old perf printed an unresolved symbol as nothing, "ADDR  (MODULE)":
   * kept as an empty name (not "[unknown]"), so that folded stacks write
   * it as stackcollapse-perf.pl does.  No module either: "[unknown]". */
  p->frames[p->n_frames++] =
    ws_stack_table_intern_frame_len (p->stacks,
                                     sym_end > sym || mod != NULL ? sym : NULL, sym_end - sym,
                                     mod, mod ? (gsize) (mod_end - mod) : 0);
}

/* "\t ffffffff813b4986 try_to_wake_up ([kernel.kallsyms])" */
static gboolean
parse_frame (Parser     *p,
             const char *line,
             const char *end,
             GError    **error)
{
  if (!p->have_pending)
    return ws_perf_set_error (error, p->display_name, p->line_no, WS_ERROR_PARSE,
                              _("a stack frame line outside of any event"));
  p->block_lines++;

  /* The file ends inside this frame (no module yet): drop it, keep the event. */
  if (p->last_line && !(end > line && end[-1] == ')'))
    return TRUE;
  add_frame (p, line + 1, end);
  return TRUE;
}

static gboolean
report_bad_header (Parser     *p,
                   const char *line,
                   const char *end,
                   GError    **error)
{
  const char *why;

  if (has_control_bytes (line, end))
    return ws_perf_set_error (error, p->display_name, p->line_no, WS_ERROR_BINARY,
                              _("binary data, not perf script text"));
  if (p->last_line)
    return ws_perf_set_error (error, p->display_name, p->line_no, WS_ERROR_TRUNCATED,
                              _("the file ends in the middle of an event header"));
  why = ws_perf_describe_bad_header (line, end);
  if (why == NULL)
    return ws_perf_set_error (error, p->display_name, p->line_no, WS_ERROR_PARSE,
                              _("not a perf script event header (expected “comm PID/TID [cpu] seconds: period event: fields”)"));
  return ws_perf_set_error (error, p->display_name, p->line_no, WS_ERROR_MISSING_FIELD, "%s", why);
}

/* How far before the earliest event so far a timestamp may go.  Output
 * CPU by CPU goes back to the start at each CPU (test-perf-importer's
 * out-of-order-real); further back than a minute, the recording's time
 * spans the gap, and so does every run and wait that crosses it. */
#define MAX_TIME_BEFORE_START ((gint64) 60 * 1000000000)

/*
 * The first event header fixes whether the file has timestamps: a later
 * one without is damage (a file mixing layouts has no single clock).  A
 * layout without time gets one made up from the order of the events,
 * 1 µs apart, so its samples still make a timeline.
 */
static gboolean
check_time (Parser  *p,
            Header  *h,
            GError **error)
{
  if (p->n_headers++ == 0)
    {
      p->untimed = !h->has_time;
      p->first_time = h->time;
    }
  if (h->has_time == !p->untimed)
    {
      if (p->untimed)
        h->time = (gint64) p->n_headers * 1000;
      else if (h->time < p->first_time - MAX_TIME_BEFORE_START)
        return ws_perf_set_error (error, p->display_name, p->line_no, WS_ERROR_PARSE,
                                  _("the time jumps back to %.6f s, %.0f s before the first event "
                                    "(at %.6f s): perf prints a recording in time order, or CPU by CPU "
                                    "from the same start, so this looks like two recordings joined "
                                    "into one file; give them as two traces"),
                                  h->time / 1e9, (p->first_time - h->time) / 1e9, p->first_time / 1e9);
      else
        p->first_time = MIN (p->first_time, h->time);
      return TRUE;
    }
  if (p->last_line)
    return ws_perf_set_error (error, p->display_name, p->line_no, WS_ERROR_TRUNCATED,
                              _("the file ends in the middle of an event header"));
  if (p->untimed)
    return ws_perf_set_error (error, p->display_name, p->line_no, WS_ERROR_PARSE,
                              _("the event header has a timestamp, but the first one had none"));
  return ws_perf_set_error (error, p->display_name, p->line_no, WS_ERROR_MISSING_FIELD,
                            _("the event header has no timestamp (seconds:)"));
}

/* sched_switch / sched_waking / sched_wakeup fields; a field missing from
 * the file's last, unterminated line means the file was cut there. */
static gboolean
parse_sched_fields (Parser       *p,
                    const Header *h,
                    const char   *end,
                    RecordType    type,
                    GError      **error)
{
  GError *field_error = NULL;

  if (type == REC_SWITCH ? parse_switch (p, h, h->rest, end, &field_error)
                         : parse_wake (p, h, h->rest, end, &field_error))
    return TRUE;
  if (!p->last_line)
    {
      g_propagate_error (error, field_error);
      return FALSE;
    }
  g_error_free (field_error);
  return ws_perf_set_error (error, p->display_name, p->line_no, WS_ERROR_TRUNCATED,
                            _("the file ends in the middle of an event header"));
}

/* The block layer's request tracepoints stay markers, and are also the
 * trace's block requests (ws-block-requests.h).  Fields that do not read
 * as the kernel prints them leave only the marker. */
static void
add_block_request (Parser       *p,
                   const Header *h,
                   const char   *end)
{
  static const char issue[] = "block:block_rq_issue", complete[] = "block:block_rq_complete";
  gboolean is_issue = h->event_len == sizeof issue - 1 && memcmp (h->event, issue, h->event_len) == 0;
  guint32 device, n_sectors, bytes = 0;
  guint64 sector;
  gchar op;

  if (!is_issue && !(h->event_len == sizeof complete - 1 && memcmp (h->event, complete, h->event_len) == 0))
    return;
  if (!ws_block_parse_fields (h->rest, end, is_issue, &device, &op, &sector, &n_sectors, &bytes))
    return;
  if (is_issue)
    ws_block_requests_add_issue (ws_trace_ensure_block_requests (p->trace), h->time, p->pending.thread,
                                 device, op, sector, n_sectors, bytes);
  else
    ws_block_requests_add_complete (ws_trace_ensure_block_requests (p->trace), h->time, device, op, sector, n_sectors);
}

static gboolean
parse_event_header (Parser     *p,
                    const char *line,
                    const char *end,
                    GError    **error)
{
  Header h;
  guint32 marker_id;
  RecordType type;

  flush_pending (p, NULL);

  if (!ws_perf_parse_header (line, end, &h))
    return report_bad_header (p, line, end, error);
  if (h.task_line)
    {
      parse_task_line (p, h.rest, end, h.time);
      return TRUE;
    }
  if (!check_time (p, &h, error))
    return FALSE;

  type = lookup_event_name (p, h.event, h.event_len, &marker_id);

  p->pending.time = h.time;
  p->pending.thread = lookup_thread (p, h.tid, h.pid);
  p->pending.stack = WS_STACK_EMPTY;
  p->pending.a = p->pending.b = WS_NONE;
  p->pending.name = WS_NONE;
  p->pending.cpu = h.cpu;
  p->pending.type = type;
  p->pending.state = 0;
  p->pending_line = p->line_no;
  p->n_frames = 0;
  set_thread_name (p, p->pending.thread, h.tid, h.comm, h.comm_len, h.time);
  note_comm (p, p->pending.thread, h.tid, h.comm, h.comm_len, h.time);

  switch (type)
    {
    case REC_SWITCH:
    case REC_WAKING:
    case REC_WAKEUP:
      if (!parse_sched_fields (p, &h, end, type, error))
        return FALSE;
      break;
    case REC_SAMPLE:
      {
        /* Without a period column every sample counts 1. */
        guint64 period = h.has_period ? h.period : 1;
        const char *rest = skip_spaces (h.rest, end);

        p->pending.a = (guint32) period;
        p->pending.b = (guint32) (period >> 32);
        p->pending.name = marker_id;
        /* No call graph printed: the sample's "ip sym (dso)" is here. */
        if (rest < end)
          add_frame (p, rest, end);
      }
      break;
    case REC_MARKER:
    default:
      p->pending.a = marker_id;
      add_block_request (p, &h, end);
      break;
    }

  p->have_pending = TRUE;
  p->want_block = p->n_frames == 0;
  p->stats.records++;
  return TRUE;
}

/* A line of a frame printed with spaces instead of a tab, or with no
 * indent at all (old perf versions, text pasted from elsewhere): an
 * address, then a space or the end. */
static gboolean
looks_like_frame (const char *s,
                  const char *end)
{
  const char *start;

  while (s < end && (*s == ' ' || *s == '\t'))
    s++;
  start = s;
  while (s < end && g_ascii_isxdigit (*s))
    s++;
  return s > start && (s == end || *s == ' ');
}

static gboolean
parse_other_line (Parser     *p,
                  const char *line,
                  const char *end,
                  GError    **error)
{
  Header h;

  if (line[0] == '#')
    {
      /* perf script --header, or a comment; the header's "# cmdline :
       * perf record …" says what was recorded (the thread picker's
       * subject). */
      static const char cmdline[] = "# cmdline : ";

      if ((gsize) (end - line) > sizeof cmdline - 1 && memcmp (line, cmdline, sizeof cmdline - 1) == 0)
        {
          g_autofree char *command = g_strndup (line + sizeof cmdline - 1, end - line - (sizeof cmdline - 1));
          if (g_utf8_validate (command, -1, NULL))
            ws_trace_set_record_command (p->trace, g_strchomp (command));
        }
      return TRUE;
    }
  if (!p->have_pending || ws_perf_parse_header (line, end, &h))
    return parse_event_header (p, line, end, error);
  if (looks_like_frame (line, end))
    {
      p->block_lines++;
      add_frame (p, line, end);
      return TRUE;
    }
  if (line[0] == ' ')
    {
      /* -F +srcline: "  file.c:123" under its frame. */
      p->block_lines++;
      return TRUE;
    }
  return parse_event_header (p, line, end, error);
}

static inline gboolean
parse_line (Parser     *p,
            const char *line,
            gsize       len,
            GError    **error)
{
  const char *end = line + len;

  if (len > 0 && end[-1] == '\r')
    end--;
  if (end == line)
    {
      flush_pending (p, line);
      return TRUE;
    }
  if (line[0] == '\t')
    return parse_frame (p, line, end, error);
  return parse_other_line (p, line, end, error);
}

/* The next chunk of text into buf + end; errors name the line reached
 * (the lines already in the buffer counted). */
static gboolean
read_more (Parser         *p,
           Source         *src,
           WsPerfPrefetch *prefetch,
           guint8         *buf,
           gsize           end,
           gsize           room,
           gsize          *n,
           guint64        *input_bytes,
           GCancellable   *cancellable,
           GError        **error)
{
  g_autoptr(GError) local_error = NULL;
  SourceStatus status;

  if (prefetch != NULL)
    status = ws_perf_prefetch_read (prefetch, buf + end, room, n, input_bytes, &local_error);
  else
    {
      status = ws_perf_source_read (src, buf + end, room, n, cancellable, &local_error);
      *input_bytes = src->input_bytes;
    }
  switch (status)
    {
    case SOURCE_OK:
      return TRUE;
    case SOURCE_IO_ERROR:
      return ws_perf_set_error (error, p->display_name, p->line_no + 1,
                                g_error_matches (local_error, G_IO_ERROR, G_IO_ERROR_CANCELLED)
                                ? WS_ERROR_CANCELLED : WS_ERROR_IO,
                                "%s", local_error->message);
    case SOURCE_BOMB:
      return ws_perf_set_error (error, p->display_name,
                                p->line_no + 1 + ws_perf_count_lines (buf, buf + end), WS_ERROR_TOO_LONG,
                                "%s", local_error->message);
    case SOURCE_TRUNCATED:
      return ws_perf_set_error (error, p->display_name,
                                p->line_no + 1 + ws_perf_count_lines (buf, buf + end), WS_ERROR_TRUNCATED,
                                _("the gzip data ends early: the file was cut short"));
    case SOURCE_CORRUPT:
    default:
      return ws_perf_set_error (error, p->display_name,
                                p->line_no + 1 + ws_perf_count_lines (buf, buf + end), WS_ERROR_PARSE,
                                _("corrupt gzip data: %s"),
                                src->z.msg ? src->z.msg : _("invalid compressed data"));
    }
}

/* Reads and parses the whole text. */
gboolean
ws_perf_parse_source (Parser       *p,
              Source       *src,
              Progress     *progress,
              GCancellable *cancellable,
              GError      **error)
{
  /* Input that fit in the sniffed head (hand-made files, test and fuzz
   * inputs) needs no more than its size: the full 5 MiB buffer is for
   * text still to come. */
  gsize cap = src->gzip || !src->eof ? BUFFER_SIZE : src->head_len + 1;
  g_autofree guint8 *buf = g_malloc (cap);
  guint64 input_bytes = src->input_bytes;
  /* Text still to come is read ahead on the other core (from here on,
   * only that thread touches @src until the parse returns). */
  g_autoptr(WsPerfPrefetch) prefetch = cap == BUFFER_SIZE ? ws_perf_prefetch_start (src, cancellable) : NULL;
  gsize start = 0, end = 0;
  gboolean eof = FALSE;

  for (;;)
    {
      gsize rem, n = 0;
      GError *local_error = NULL;
      const guint8 *nul;

      /* Every complete line in the buffer. */
      while (start < end)
        {
          const guint8 *line = buf + start;
          const guint8 *nl = memchr (line, '\n', end - start);
          gsize len;

          if (nl == NULL)
            break;
          len = nl - line;
          p->line_no++;
          if (len > WS_PERF_IMPORTER_MAX_LINE)
            return ws_perf_set_error (error, p->display_name, p->line_no, WS_ERROR_TOO_LONG,
                              _("a line longer than %u bytes: not perf script text"),
                              (guint) WS_PERF_IMPORTER_MAX_LINE);
          if (!parse_line (p, (const char *) line, len, error))
            return FALSE;
          start += len + 1;
          if (p->want_block)
            {
              p->want_block = FALSE;
              start += try_stack_block (p, (const char *) buf + start, end - start);
            }
        }

      rem = end - start;
      if (eof)
        {
          if (rem > 0)
            {
              p->line_no++;
              p->last_line = TRUE;
              if (!parse_line (p, (const char *) buf + start, rem, error))
                return FALSE;
            }
          break;
        }
      if (rem > WS_PERF_IMPORTER_MAX_LINE)
        return ws_perf_set_error (error, p->display_name, p->line_no + 1, WS_ERROR_TOO_LONG,
                          _("a line longer than %u bytes: not perf script text"),
                          (guint) WS_PERF_IMPORTER_MAX_LINE);
      if (start > 0)
        {
          memmove (buf, buf + start, rem);
          start = 0;
          end = rem;
        }

      if (g_cancellable_set_error_if_cancelled (cancellable, &local_error))
        {
          g_clear_error (&local_error);
          return ws_perf_set_error (error, p->display_name, p->line_no, WS_ERROR_CANCELLED,
                            _("import cancelled"));
        }

      if (!read_more (p, src, prefetch, buf, end, MIN (CHUNK_SIZE, cap - end), &n, &input_bytes, cancellable, error))
        return FALSE;

      if (n == 0)
        eof = TRUE;
      else if ((nul = memchr (buf + end, '\0', n)) != NULL)
        return ws_perf_set_error (error, p->display_name,
                          p->line_no + 1 + ws_perf_count_lines (buf, nul), WS_ERROR_BINARY,
                          _("binary data (a NUL byte), not perf script text"));
      end += n;
      p->stats.text_bytes += n;

      ws_perf_report (progress,
              progress->total > 0 ? 0.9 * MIN (1.0, (double) input_bytes / progress->total) : -1.0,
              _("Reading perf events"));
    }

  flush_pending (p, NULL);
  p->stats.lines = p->line_no;
  p->stats.input_bytes = input_bytes;
  return TRUE;
}


/*
 * The same first pass for readers of other formats (ws-tracecmd-reader.c):
 * they hand over each event decoded, and the records, thread names, pids
 * and stacks are kept exactly as for perf text, so ws_perf_derive() makes
 * the same waits of the same events.
 */
guint32
ws_perf_parser_thread (Parser *p,
                       gint32  tid,
                       gint32  pid)
{
  return lookup_thread (p, tid, pid);
}

void
ws_perf_parser_name_thread (Parser     *p,
                            guint32     thread,
                            gint32      tid,
                            const char *name,
                            gsize       len,
                            gint64      time,
                            gboolean    own_comm)
{
  set_thread_name (p, thread, tid, name, len, time);
  if (own_comm)
    note_comm (p, thread, tid, name, len, time);
}

/*
 * The state letter perf prints for a raw sched_switch prev_state: the
 * lowest TASK_REPORT bit (kernels since 4.14: S D T t X Z P I), R when
 * none.  The preemption bit above them ("R+") is still R.
 */
char
ws_perf_state_letter (guint64 state)
{
  static const char letters[] = "SDTtXZPI";

  for (guint bit = 0; bit < sizeof letters - 1; bit++)
    if (state & (1u << bit))
      return letters[bit];
  return 'R';
}

/*
 * A binary sched_switch (trace-cmd, Perfetto): @rec (its time and thread
 * set) gets its prev and next threads and state, and both comms name
 * their threads as perf's text does.  @prev_comm may be %NULL (Perfetto's
 * compact encoding has no prev_comm: the thread was named when it was
 * switched in).  @tid, @pid: the thread the event ran in.
 */
void
ws_perf_parser_switch (Parser     *p,
                       Record     *rec,
                       gint32      tid,
                       gint32      pid,
                       gint32      prev_pid,
                       const char *prev_comm,
                       gsize       prev_len,
                       guint64     prev_state,
                       gint32      next_pid,
                       const char *next_comm,
                       gsize       next_len)
{
  rec->a = lookup_thread (p, prev_pid, prev_pid == tid ? pid : -1);
  rec->b = lookup_thread (p, next_pid, -1);
  rec->state = ws_perf_state_letter (prev_state);
  /* prev is the thread the event ran in: its comm is its own, as a perf
   * header's is (an exec shows as a new one). */
  if (prev_comm != NULL)
    ws_perf_parser_name_thread (p, rec->a, prev_pid, prev_comm, prev_len, rec->time, prev_pid == tid);
  if (next_comm != NULL)
    ws_perf_parser_name_thread (p, rec->b, next_pid, next_comm, next_len, rec->time, FALSE);
}

/* A binary wake-up event of @target, named @comm (may be %NULL). */
void
ws_perf_parser_wake (Parser     *p,
                     Record     *rec,
                     gint32      target,
                     const char *comm,
                     gsize       len)
{
  rec->a = lookup_thread (p, target, -1);
  if (comm != NULL)
    set_thread_name (p, rec->a, target, comm, len, rec->time);
}

RecordType
ws_perf_parser_event_type (Parser     *p,
                           const char *name,
                           gsize       len,
                           guint32    *marker_id)
{
  return lookup_event_name (p, name, len, marker_id);
}

void
ws_perf_parser_task (Parser     *p,
                     WsPerfTask  what,
                     gint32      pid,
                     gint32      tid,
                     gint32      ppid,
                     const char *comm,
                     gint64      time)
{
  if (what == WS_PERF_TASK_COMM)
    task_comm (p, pid, tid, comm, strlen (comm), time);
  else
    task_fork_or_exit (p, what == WS_PERF_TASK_FORK, pid, tid, ppid, time);
}

/* Thread @tid is of process @pid (an event's own account: LTTng's `pid` context). */
void
ws_perf_parser_task_process (Parser *p,
                             gint32  tid,
                             gint32  pid)
{
  ensure_task (p, tid, pid);
}

gint32
ws_perf_parser_task_pid (Parser *p,
                         gint32  tid)
{
  TaskInfo *t = g_hash_table_lookup (p->tasks, GINT_TO_POINTER (tid));

  return t != NULL ? t->pid : -1;
}

/* @frames: leaf first, as perf prints them; @r->stack is set here. */
void
ws_perf_parser_add_record (Parser          *p,
                           const Record    *r,
                           const WsFrameId *frames,
                           guint            n_frames)
{
  if (n_frames > p->frames_cap)
    {
      p->frames_cap = n_frames;
      p->frames = g_renew (WsFrameId, p->frames, p->frames_cap);
    }
  memcpy (p->frames, frames, n_frames * sizeof (WsFrameId));
  p->n_frames = n_frames;
  p->pending = *r;
  p->have_pending = TRUE;
  p->stack_done = FALSE;
  p->block = NULL;
  p->stats.records++;
  flush_pending (p, NULL);
}
