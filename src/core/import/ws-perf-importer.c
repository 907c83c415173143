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

#include <string.h>
#include <unistd.h>
#include <zlib.h>

#include <glib/gstdio.h>

#include <glib/gi18n-lib.h>

#include "ws-error.h"
#include "ws-perf-importer.h"
#include "ws-trace-private.h"

/* Text is parsed in chunks this big; the buffer also holds one partial line. */
#define CHUNK_SIZE   (4 * 1024 * 1024)
#define BUFFER_SIZE  (CHUNK_SIZE + WS_PERF_IMPORTER_MAX_LINE + 1)
#define ZBUF_SIZE    (256 * 1024)
#define HEAD_SIZE    (64 * 1024)

/* ------------------------------------------------------------------------ */
/* Interrupt context                                                          */
/* ------------------------------------------------------------------------ */

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
  /* softirqs, on interrupt exit or deferred to ksoftirqd: timer wheel, RCU,
   * block and network completions -- work done on behalf of hardware */
  { "handle_softirqs", FALSE },
  { "__do_softirq", FALSE },
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

/* ------------------------------------------------------------------------ */
/* First pass: text -> records                                                */
/* ------------------------------------------------------------------------ */

typedef enum {
  REC_SWITCH,
  REC_WAKING,
  REC_WAKEUP,
  REC_SAMPLE,
  REC_MARKER,
} RecordType;

/* Set on a waking/wakeup record whose context is an interrupt. */
#define REC_INTERRUPT 0x80

/*
 * One event header, 32 bytes.  Thread fields are WsTrace thread indices.
 * a/b: SWITCH prev/next thread; WAKING/WAKEUP target thread; SAMPLE the
 * period (a low, b high 32 bits); MARKER the name's string id.
 */
typedef struct {
  gint64  time;
  guint32 thread;
  guint32 stack;
  guint32 a;
  guint32 b;
  guint16 cpu;
  guint8  type;
  gchar   state;
} Record;

G_STATIC_ASSERT (sizeof (Record) == 32);

/*
 * The records, in chunks of 2 MiB: the second pass frees each chunk once it
 * has derived its events, so the records and the events they become are
 * not both held in full (peak memory per event stays near the trace's own).
 */
#define RECORDS_PER_CHUNK (64 * 1024)

typedef struct {
  GPtrArray *chunks;       /* Record[RECORDS_PER_CHUNK] each */
  guint      first_cap;    /* records the first chunk has room for */
  guint      n;
  guint      n_switches;
  gboolean   unsorted;
  gint64     max_time;
} RecordList;

static inline void
record_list_append (RecordList   *list,
                    const Record *r)
{
  guint k = list->n % RECORDS_PER_CHUNK;

  /* The first chunk starts small and doubles, so a file of a few events
   * does not allocate 2 MiB for them. */
  if (list->n == 0)
    {
      list->first_cap = 256;
      g_ptr_array_add (list->chunks, g_new (Record, list->first_cap));
    }
  else if (list->n == list->first_cap && list->n < RECORDS_PER_CHUNK)
    {
      list->first_cap *= 2;
      list->chunks->pdata[0] = g_renew (Record, list->chunks->pdata[0], list->first_cap);
    }
  else if (k == 0)
    g_ptr_array_add (list->chunks, g_new (Record, RECORDS_PER_CHUNK));
  ((Record *) list->chunks->pdata[list->n / RECORDS_PER_CHUNK])[k] = *r;
  list->n++;
  if ((r->type & ~REC_INTERRUPT) == REC_SWITCH)
    list->n_switches++;
  if (r->time < list->max_time)
    list->unsorted = TRUE;
  else
    list->max_time = r->time;
}

static inline Record *
record_list_get (RecordList *list,
                 guint       i)
{
  return &((Record *) list->chunks->pdata[i / RECORDS_PER_CHUNK])[i % RECORDS_PER_CHUNK];
}

static int
compare_record_time (gconstpointer a,
                     gconstpointer b,
                     gpointer      user_data)
{
  const Record *ra = a, *rb = b;

  return ra->time < rb->time ? -1 : ra->time > rb->time;
}

/* Lines from several CPUs out of time order: sort once, stably (GLib's
 * merge sort), so that same-time records keep their file order. */
static void
record_list_sort (RecordList *list)
{
  Record *all;

  if (!list->unsorted)
    return;
  all = g_new (Record, MAX (list->n, 1));
  for (guint i = 0; i < list->n; i++)
    all[i] = *record_list_get (list, i);
  g_qsort_with_data (all, list->n, sizeof (Record), compare_record_time, NULL);
  for (guint i = 0; i < list->n; i++)
    *record_list_get (list, i) = all[i];
  g_free (all);
  list->unsorted = FALSE;
}

/*
 * Stack-text cache.  Most events repeat a call stack seen before, and perf
 * prints it as the same bytes, so the whole block of frame lines is looked
 * up at once (hash, then memcmp against the stored text) instead of
 * interning its 10-60 frames one by one: the block's id is known after one
 * pass over its bytes.  The stored text is capped; past the cap, new blocks
 * are interned frame by frame as before.
 */
#define BLOCK_CACHE_MAX_BYTES (64 * 1024 * 1024)

typedef struct {
  guint64 hash;     /* 0 = free */
  guint64 offset;   /* into the text arena */
  guint32 len;
  guint32 stack;
  guint32 lines;
  guint32 padding;
} BlockEntry;

typedef struct {
  BlockEntry *entries;
  gsize       mask;
  gsize       n_entries;
  char       *text;
  gsize       text_len;
  gsize       text_cap;
} BlockCache;

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

/* Per thread index, filled while parsing. */
typedef struct {
  char   *name;
  gsize   name_len;
  gint64  name_time;
} ThreadName;

/* From PERF_RECORD_FORK/COMM/EXIT task lines, keyed by tid. */
typedef struct {
  gint32  pid;
  gint64  name_time;
  char   *name;
} TaskInfo;

typedef struct {
  char       *name;
  gsize       len;
  RecordType  type;
  guint32     id;     /* MARKER: string id */
} EventName;

#define N_EVENT_NAMES 32
#define TID_CACHE_SIZE 1024

typedef struct {
  gint32  tid;
  guint32 index;
  gboolean pid_known;
} TidCacheEntry;

typedef struct {
  const char     *display_name;
  WsTrace        *trace;
  WsStackTable   *stacks;
  RecordList      records;
  GArray         *names;         /* ThreadName, by thread index */
  GHashTable     *tasks;         /* tid -> TaskInfo */

  /* The event being read: its header, then its frames (leaf first). */
  Record          pending;
  gboolean        have_pending;
  guint64         pending_line;
  WsFrameId      *frames;
  guint           n_frames;
  guint           frames_cap;

  /* The stack text of the event being read, when it is in the buffer
   * whole: remembered on a cache miss, to be added once interned. */
  const char     *block;
  gsize           block_len;
  guint64         block_hash;
  guint           block_lines;
  gboolean        stack_done;    /* pending.stack came from the cache */
  gboolean        want_block;    /* a header was just read */
  gboolean        no_block_cache;  /* benchmarks: measure the frame path */
  BlockCache      block_cache;

  EventName       event_names[N_EVENT_NAMES];
  guint           n_event_names;
  TidCacheEntry   tid_cache[TID_CACHE_SIZE];
  guint8         *frame_irq;     /* by frame id: 0 unknown, 1 no, 2 yes */
  gsize           frame_irq_len;
  guint8         *stack_irq;     /* by stack id, the same */
  gsize           stack_irq_len;

  guint64         line_no;
  gboolean        last_line;     /* the current line had no '\n' */
  WsPerfImportStats stats;
} Parser;

static void
task_info_free (gpointer data)
{
  TaskInfo *t = data;

  g_free (t->name);
  g_free (t);
}

static void
parser_init (Parser       *p,
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
  p->frames_cap = 256;
  p->frames = g_new (WsFrameId, p->frames_cap);
  for (guint i = 0; i < TID_CACHE_SIZE; i++)
    p->tid_cache[i].tid = G_MININT32;   /* empty: perf itself may print -1 */
  /* Only for measuring the worst case (every stack new); see tests/bench. */
  p->no_block_cache = g_getenv ("WS_PERF_IMPORTER_NO_STACK_CACHE") != NULL;
}

static void
parser_clear (Parser *p)
{
  if (p->records.chunks)
    g_ptr_array_unref (p->records.chunks);
  for (guint i = 0; p->names && i < p->names->len; i++)
    g_free (g_array_index (p->names, ThreadName, i).name);
  if (p->names)
    g_array_unref (p->names);
  g_clear_pointer (&p->tasks, g_hash_table_unref);
  g_free (p->frames);
  g_free (p->frame_irq);
  g_free (p->stack_irq);
  g_free (p->block_cache.entries);
  g_free (p->block_cache.text);
  for (guint i = 0; i < p->n_event_names; i++)
    g_free (p->event_names[i].name);
}

/* Every importer message starts with "FILE:LINE: ". */
G_GNUC_PRINTF (5, 6)
static gboolean
set_error (GError     **error,
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

static inline guint32
lookup_thread (Parser *p,
               gint32  tid,
               gint32  pid)
{
  TidCacheEntry *c = &p->tid_cache[(guint32) tid & (TID_CACHE_SIZE - 1)];

  if (c->tid == tid && (pid < 0 || c->pid_known))
    return c->index;

  c->tid = tid;
  c->index = ws_trace_ensure_thread (p->trace, tid, pid);
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

static inline const char *
skip_spaces (const char *s,
             const char *end)
{
  while (s < end && *s == ' ')
    s++;
  return s;
}

/* Parses an unsigned decimal; returns the end, or NULL if no digit. */
static inline const char *
parse_u64 (const char *s,
           const char *end,
           guint64    *value)
{
  const char *start = s;
  guint64 v = 0;

  while (s < end && (guchar) (*s - '0') < 10 && s - start < 19)
    v = v * 10 + (guint64) (*s++ - '0');
  if (s == start)
    return NULL;
  *value = v;
  return s;
}

static inline const char *
parse_i32 (const char *s,
           const char *end,
           gint32     *value)
{
  guint64 v;
  gboolean neg = FALSE;

  if (s < end && *s == '-')
    neg = TRUE, s++;
  if ((s = parse_u64 (s, end, &v)) == NULL || v > G_MAXINT32)
    return NULL;
  *value = neg ? -(gint32) v : (gint32) v;
  return s;
}

/* "1668.105842:" -> ns; returns the position after the ':' or NULL. */
static inline const char *
parse_timestamp (const char *s,
                 const char *end,
                 gint64     *ns)
{
  static const gint64 scale[10] = {
    1000000000, 100000000, 10000000, 1000000, 100000, 10000, 1000, 100, 10, 1
  };
  guint64 sec, frac = 0;
  const char *f;

  if ((s = parse_u64 (s, end, &sec)) == NULL || sec > (guint64) WS_TIME_MAX / 1000000000)
    return NULL;
  if (s < end && *s == '.')
    {
      f = s + 1;
      s = f;
      while (s < end && (guchar) (*s - '0') < 10 && s - f < 9)
        frac = frac * 10 + (guint64) (*s++ - '0');
      while (s < end && (guchar) (*s - '0') < 10)   /* beyond ns: ignore */
        s++;
      frac *= scale[MIN (s - f, 9)];
    }
  if (s >= end || *s != ':')
    return NULL;
  *ns = (gint64) sec * 1000000000 + (gint64) frac;
  if (*ns > WS_TIME_MAX)   /* see WS_TIME_MAX */
    return NULL;
  return s + 1;
}

typedef struct {
  const char *comm;
  gsize       comm_len;
  gint32      pid;
  gint32      tid;
  guint       cpu;
  gint64      time;
  const char *rest;        /* after "time:" */
} Header;

/*
 * Finds the "PID/TID  [cpu]  seconds:" group.  comm may hold spaces (and
 * even digits or slashes), so the group is searched for, not split out:
 * the first '[' with digits and ']' preceded by a PID/TID (or TID) token and
 * followed by a timestamp.
 */
static gboolean
parse_header (const char *line,
              const char *end,
              Header     *h)
{
  const char *s = line;

  while ((s = memchr (s, '[', end - s)) != NULL)
    {
      const char *open = s, *q, *tok, *tok_end;
      guint64 cpu;
      gint32 a, b = -1;

      s++;
      if ((q = parse_u64 (open + 1, end, &cpu)) == NULL || q >= end || *q != ']' || cpu > G_MAXUINT16)
        continue;
      q = skip_spaces (q + 1, end);
      if (q == open + 1 || (q = parse_timestamp (q, end, &h->time)) == NULL)
        continue;

      /* Backwards: spaces, then "PID/TID" or "TID", then a space or the start. */
      tok_end = open;
      while (tok_end > line && tok_end[-1] == ' ')
        tok_end--;
      if (tok_end == open)
        continue;
      tok = tok_end;
      while (tok > line && (g_ascii_isdigit (tok[-1]) || tok[-1] == '/' || tok[-1] == '-'))
        tok--;
      if (tok == tok_end || (tok > line && tok[-1] != ' '))
        continue;
      {
        const char *t = parse_i32 (tok, tok_end, &a);
        if (t == NULL)
          continue;
        if (t < tok_end)
          {
            if (*t != '/' || parse_i32 (t + 1, tok_end, &b) != tok_end)
              continue;
          }
      }

      h->pid = b >= 0 ? a : -1;
      h->tid = b >= 0 ? b : a;
      h->cpu = (guint) cpu;
      h->rest = q;
      h->comm = line;
      h->comm_len = tok > line ? (gsize) (tok - line) : 0;
      while (h->comm_len > 0 && line[h->comm_len - 1] == ' ')
        h->comm_len--;
      return TRUE;
    }

  return FALSE;
}

/* "SECONDS.FRACTION:" whatever its size (parse_timestamp() refuses times
 * beyond WS_TIME_MAX). */
static gboolean
looks_like_timestamp (const char *s,
                      const char *end)
{
  const char *d = s;

  while (s < end && g_ascii_isdigit (*s))
    s++;
  if (s == d || s >= end || *s != '.')
    return FALSE;
  d = ++s;
  while (s < end && g_ascii_isdigit (*s))
    s++;
  return s > d && s < end && *s == ':';
}

/* For the error message: which part of "PID/TID [cpu] time:" is missing. */
static const char *
describe_bad_header (const char *line,
                     const char *end)
{
  gboolean have_cpu = FALSE, have_time = FALSE, have_tid = FALSE, have_big_time = FALSE;

  for (const char *s = line; s < end; s++)
    {
      guint64 v;
      gint64 t;
      const char *q;

      if (*s == '[' && (q = parse_u64 (s + 1, end, &v)) != NULL && q < end && *q == ']')
        have_cpu = TRUE;
      if ((s == line || s[-1] == ' ') && g_ascii_isdigit (*s))
        {
          if (parse_timestamp (s, end, &t) != NULL && memchr (s, '.', end - s) != NULL)
            have_time = TRUE;
          else if (looks_like_timestamp (s, end))
            have_big_time = TRUE;
          if ((q = parse_u64 (s, end, &v)) != NULL && q < end && *q == '/')
            have_tid = TRUE;
        }
    }

  if (!have_cpu && !have_time && !have_tid)
    return NULL;
  if (!have_cpu)
    return _("the event header has no [cpu] field");
  if (!have_time && have_big_time)
    return _("the event timestamp is out of range (at most 2305843009 seconds)");
  if (!have_time)
    return _("the event header has no timestamp (seconds:)");
  if (!have_tid)
    return _("the event header has no PID/TID field");
  return _("the event header fields are not in the order comm PID/TID [cpu] seconds:");
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
    type = REC_SAMPLE;
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
    return set_error (error, p->display_name, p->line_no, WS_ERROR_MISSING_FIELD,
                      _("sched_switch without %s"), "prev_comm");
  prev_comm += 10;
  if ((prev_comm_end = FIND (prev_comm, end, " prev_pid=")) == NULL ||
      parse_i32 (prev_comm_end + 10, end, &prev_pid) == NULL)
    return set_error (error, p->display_name, p->line_no, WS_ERROR_MISSING_FIELD,
                      _("sched_switch without %s"), "prev_pid");
  if ((q = FIND (prev_comm_end, end, " prev_state=")) == NULL || q + 12 >= end)
    return set_error (error, p->display_name, p->line_no, WS_ERROR_MISSING_FIELD,
                      _("sched_switch without %s"), "prev_state");
  state = q + 12;
  if ((next_comm = FIND (state, end, "==> next_comm=")) == NULL)
    return set_error (error, p->display_name, p->line_no, WS_ERROR_MISSING_FIELD,
                      _("sched_switch without %s"), "next_comm");
  next_comm += 14;
  if ((next_comm_end = FIND (next_comm, end, " next_pid=")) == NULL ||
      parse_i32 (next_comm_end + 10, end, &next_pid) == NULL)
    return set_error (error, p->display_name, p->line_no, WS_ERROR_MISSING_FIELD,
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
    return set_error (error, p->display_name, p->line_no, WS_ERROR_MISSING_FIELD,
                      _("wake-up event without %s"), "comm");
  comm += 5;
  if ((comm_end = FIND (comm, end, " pid=")) == NULL ||
      parse_i32 (comm_end + 5, end, &pid) == NULL)
    return set_error (error, p->display_name, p->line_no, WS_ERROR_MISSING_FIELD,
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
      {
        TaskInfo *t = ensure_task (p, tid, pid);
        if (time >= t->name_time && !is_placeholder_comm (name, colon - name))
          {
            g_free (t->name);
            t->name = g_strndup (name, colon - name);
            t->name_time = time;
          }
      }
    }
  else if (end - s > 17 && (memcmp (s, "PERF_RECORD_FORK(", 17) == 0 ||
                            memcmp (s, "PERF_RECORD_EXIT(", 17) == 0))
    {
      if ((q = parse_i32 (s + 17, end, &pid)) == NULL || q >= end || *q != ':' ||
          parse_i32 (q + 1, end, &tid) == NULL)
        return;
      ensure_task (p, tid, pid);
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

/* "\t ffffffff813b4986 try_to_wake_up ([kernel.kallsyms])" */
static gboolean
parse_frame (Parser     *p,
             const char *line,
             const char *end,
             GError    **error)
{
  const char *s = line + 1, *sym, *sym_end = end, *mod = NULL, *mod_end = NULL;

  if (!p->have_pending)
    return set_error (error, p->display_name, p->line_no, WS_ERROR_PARSE,
                      _("a stack frame line outside of any event"));
  p->block_lines++;

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
  else if (p->last_line)
    {
      /* The file ends inside this frame: drop it, keep the event. */
      return TRUE;
    }

  if (p->n_frames == p->frames_cap)
    {
      p->frames_cap *= 2;
      p->frames = g_renew (WsFrameId, p->frames, p->frames_cap);
    }
  p->frames[p->n_frames++] =
    ws_stack_table_intern_frame_len (p->stacks,
                                     sym_end > sym ? sym : NULL, sym_end - sym,
                                     mod, mod ? (gsize) (mod_end - mod) : 0);
  return TRUE;
}

static gboolean
parse_event_header (Parser     *p,
                    const char *line,
                    const char *end,
                    GError    **error)
{
  Header h;
  const char *s, *name, *name_end;
  guint64 period = 1;
  guint32 marker_id;
  RecordType type;

  flush_pending (p, NULL);

  if (!parse_header (line, end, &h))
    {
      const char *why;

      if (has_control_bytes (line, end))
        return set_error (error, p->display_name, p->line_no, WS_ERROR_BINARY,
                          _("binary data, not perf script text"));
      if (p->last_line)
        return set_error (error, p->display_name, p->line_no, WS_ERROR_TRUNCATED,
                          _("the file ends in the middle of an event header"));
      why = describe_bad_header (line, end);
      if (why == NULL)
        return set_error (error, p->display_name, p->line_no, WS_ERROR_PARSE,
                          _("not a perf script event header (expected “comm PID/TID [cpu] seconds: period event: fields”)"));
      return set_error (error, p->display_name, p->line_no, WS_ERROR_MISSING_FIELD, "%s", why);
    }

  s = skip_spaces (h.rest, end);
  if (end - s >= 12 && memcmp (s, "PERF_RECORD_", 12) == 0)
    {
      parse_task_line (p, s, end, h.time);
      return TRUE;
    }

  if (s < end && g_ascii_isdigit (*s))
    {
      if ((s = parse_u64 (s, end, &period)) == NULL)
        return FALSE;
      s = skip_spaces (s, end);
    }
  name = s;
  while (s < end && *s != ' ')
    s++;
  name_end = s;
  if (name_end == name || name_end[-1] != ':' || name_end - name < 2)
    {
      if (p->last_line)
        return set_error (error, p->display_name, p->line_no, WS_ERROR_TRUNCATED,
                          _("the file ends in the middle of an event header"));
      return set_error (error, p->display_name, p->line_no, WS_ERROR_MISSING_FIELD,
                        _("the event header has no event name (“event:”)"));
    }
  name_end--;   /* the colon */
  if (s < end)
    s++;

  type = lookup_event_name (p, name, name_end - name, &marker_id);

  p->pending.time = h.time;
  p->pending.thread = lookup_thread (p, h.tid, h.pid);
  p->pending.stack = WS_STACK_EMPTY;
  p->pending.a = p->pending.b = WS_NONE;
  p->pending.cpu = h.cpu;
  p->pending.type = type;
  p->pending.state = 0;
  p->pending_line = p->line_no;
  p->n_frames = 0;
  set_thread_name (p, p->pending.thread, h.tid, h.comm, h.comm_len, h.time);

  switch (type)
    {
    case REC_SWITCH:
    case REC_WAKING:
    case REC_WAKEUP:
      {
        GError *field_error = NULL;

        if (type == REC_SWITCH ? parse_switch (p, &h, s, end, &field_error)
                               : parse_wake (p, &h, s, end, &field_error))
          break;
        if (!p->last_line)
          {
            g_propagate_error (error, field_error);
            return FALSE;
          }
        /* A field missing from the file's last, unterminated line: cut. */
        g_error_free (field_error);
        return set_error (error, p->display_name, p->line_no, WS_ERROR_TRUNCATED,
                          _("the file ends in the middle of an event header"));
      }
    case REC_SAMPLE:
      p->pending.a = (guint32) period;
      p->pending.b = (guint32) (period >> 32);
      break;
    case REC_MARKER:
    default:
      p->pending.a = marker_id;
      break;
    }

  p->have_pending = TRUE;
  p->want_block = TRUE;
  p->stats.records++;
  return TRUE;
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
  return parse_event_header (p, line, end, error);
}

/* ------------------------------------------------------------------------ */
/* Input: plain or gzip, from a stream                                        */
/* ------------------------------------------------------------------------ */

typedef struct {
  GInputStream *stream;
  /* Bytes read to sniff the format, handed out first. */
  guint8       *head;
  gsize         head_len;
  gsize         head_pos;
  gboolean      eof;
  guint64       input_bytes;

  gboolean      gzip;
  gboolean      z_ready;
  gboolean      z_member_done;
  z_stream      z;
  guint8       *zbuf;
} Source;

static gssize
source_read_raw (Source       *src,
                 guint8       *dst,
                 gsize         len,
                 GCancellable *cancellable,
                 GError      **error)
{
  gssize n;

  if (src->head_pos < src->head_len)
    {
      n = MIN (len, src->head_len - src->head_pos);
      memcpy (dst, src->head + src->head_pos, n);
      src->head_pos += n;
      return n;
    }
  if (src->eof)
    return 0;
  n = g_input_stream_read (src->stream, dst, len, cancellable, error);
  if (n == 0)
    src->eof = TRUE;
  if (n > 0)
    src->input_bytes += n;
  return n;
}

typedef enum {
  SOURCE_OK,
  SOURCE_IO_ERROR,
  SOURCE_TRUNCATED,
  SOURCE_CORRUPT,
} SourceStatus;

/* Fills dst with text; *n_read = 0 at the end of the input. */
static SourceStatus
source_read (Source       *src,
             guint8       *dst,
             gsize         len,
             gsize        *n_read,
             GCancellable *cancellable,
             GError      **error)
{
  *n_read = 0;

  if (!src->gzip)
    {
      gssize n = source_read_raw (src, dst, len, cancellable, error);
      if (n < 0)
        return SOURCE_IO_ERROR;
      *n_read = n;
      return SOURCE_OK;
    }

  src->z.next_out = dst;
  src->z.avail_out = len;
  while (src->z.avail_out == len)
    {
      int ret;

      if (src->z.avail_in == 0)
        {
          gssize n = source_read_raw (src, src->zbuf, ZBUF_SIZE, cancellable, error);
          if (n < 0)
            return SOURCE_IO_ERROR;
          if (n == 0)
            {
              if (src->z_member_done)
                return SOURCE_OK;   /* the end, after a complete gzip member */
              return SOURCE_TRUNCATED;
            }
          src->z.next_in = src->zbuf;
          src->z.avail_in = n;
        }

      if (src->z_member_done)
        {
          /* Concatenated gzip members (gzip a >> f; gzip b >> f) are one file. */
          if (inflateReset (&src->z) != Z_OK)
            return SOURCE_CORRUPT;
          src->z_member_done = FALSE;
        }

      ret = inflate (&src->z, Z_NO_FLUSH);
      if (ret == Z_STREAM_END)
        src->z_member_done = TRUE;
      else if (ret == Z_BUF_ERROR)
        continue;   /* needs more input */
      else if (ret != Z_OK)
        return SOURCE_CORRUPT;
    }

  *n_read = len - src->z.avail_out;
  return SOURCE_OK;
}

static void
source_clear (Source *src)
{
  if (src->z_ready)
    inflateEnd (&src->z);
  g_free (src->zbuf);
  g_free (src->head);
}

static gsize
count_lines (const guint8 *s,
             const guint8 *end)
{
  gsize n = 0;

  while (s < end && (s = memchr (s, '\n', end - s)) != NULL)
    n++, s++;
  return n;
}

typedef struct {
  WsProgressFunc  func;
  gpointer        data;
  guint64         total;      /* input bytes, 0 if unknown (a stream) */
  double          last;
  gint64          last_time;
} Progress;

/* At most every 1 % and every 100 ms (WsProgressFunc asks callers to
 * throttle); the first and the last report always go through. */
static void
report (Progress   *progress,
        double      fraction,
        const char *message)
{
  gint64 now;

  if (progress->func == NULL)
    return;
  now = g_get_monotonic_time ();
  if (progress->last_time != 0 && fraction < 1.0 &&
      (now - progress->last_time < 100 * G_TIME_SPAN_MILLISECOND ||
       (fraction >= 0 && fraction - progress->last < 0.01)))
    return;
  progress->last = fraction;
  progress->last_time = now;
  progress->func (fraction, message, progress->data);
}

/* Reads and parses the whole text. */
static gboolean
parse_source (Parser       *p,
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
  gsize start = 0, end = 0;
  gboolean eof = FALSE;

  for (;;)
    {
      gsize rem, n = 0;
      SourceStatus status;
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
            return set_error (error, p->display_name, p->line_no, WS_ERROR_TOO_LONG,
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
        return set_error (error, p->display_name, p->line_no + 1, WS_ERROR_TOO_LONG,
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
          return set_error (error, p->display_name, p->line_no, WS_ERROR_CANCELLED,
                            _("import cancelled"));
        }

      status = source_read (src, buf + end, MIN (CHUNK_SIZE, cap - end), &n,
                            cancellable, &local_error);
      switch (status)
        {
        case SOURCE_OK:
          break;
        case SOURCE_IO_ERROR:
          {
            WsError code = g_error_matches (local_error, G_IO_ERROR, G_IO_ERROR_CANCELLED)
                           ? WS_ERROR_CANCELLED : WS_ERROR_IO;
            set_error (error, p->display_name, p->line_no + 1, code, "%s", local_error->message);
            g_clear_error (&local_error);
            return FALSE;
          }
        case SOURCE_TRUNCATED:
          return set_error (error, p->display_name,
                            p->line_no + 1 + count_lines (buf, buf + end), WS_ERROR_TRUNCATED,
                            _("the gzip data ends early: the file was cut short"));
        case SOURCE_CORRUPT:
        default:
          return set_error (error, p->display_name,
                            p->line_no + 1 + count_lines (buf, buf + end), WS_ERROR_PARSE,
                            _("corrupt gzip data: %s"),
                            src->z.msg ? src->z.msg : _("invalid compressed data"));
        }

      if (n == 0)
        eof = TRUE;
      else if ((nul = memchr (buf + end, '\0', n)) != NULL)
        return set_error (error, p->display_name,
                          p->line_no + 1 + count_lines (buf, nul), WS_ERROR_BINARY,
                          _("binary data (a NUL byte), not perf script text"));
      end += n;
      p->stats.text_bytes += n;

      report (progress,
              progress->total > 0 ? 0.9 * MIN (1.0, (double) src->input_bytes / progress->total) : -1.0,
              _("Reading perf events"));
    }

  flush_pending (p, NULL);
  p->stats.lines = p->line_no;
  p->stats.input_bytes = src->input_bytes;
  return TRUE;
}

/* ------------------------------------------------------------------------ */
/* Second pass: records -> events                                             */
/* ------------------------------------------------------------------------ */

typedef struct {
  guint32  open_wait;     /* WAIT not woken yet */
  guint32  woken_wait;    /* WAIT woken, its switch-in (ready latency) not seen */
  guint32  open_preempt;
  guint32  open_span;     /* RUNNING span still on CPU */
  WsTime   wake_time;
  gboolean waking_seen;   /* a sched_waking named it since its last wait began */
} ThreadRun;

typedef struct {
  WsTrace           *trace;
  ThreadRun         *runs;
  guint32            idle;
  WsPerfImportStats *stats;
} Deriver;

static inline guint
add_event (Deriver      *d,
           WsEventKind   kind,
           const Record *r,
           guint32       thread,
           WsTime        duration)
{
  WsEvent e;

  e.time = r->time;
  e.duration = duration;
  e.thread = thread;
  e.stack = r->stack;
  e.peer = WS_NONE;
  e.target = WS_NONE;
  e.ready_latency = WS_LATENCY_UNKNOWN;
  e.cpu = r->cpu;
  e.kind = kind;
  e.flags = 0;
  e.state = 0;
  return ws_trace_add_event (d->trace, &e);
}

/*
 * @thread is on a CPU at @r's time: its switch-in (@switch_in), a sample in
 * its context, or any event recorded in its context.  A wait with no
 * wake-up ends here, with the readier unknown (the VM drops many idle-CPU
 * wake-ups and switch-ins: traces/README.md, caveat 1).
 */
static void
seen_running (Deriver      *d,
              guint32       thread,
              const Record *r,
              gboolean      switch_in,
              gboolean      start_span)
{
  ThreadRun *run = &d->runs[thread];

  if (thread == d->idle)
    return;

  if (G_UNLIKELY (run->open_wait != WS_NONE))
    {
      WsEvent *w = ws_trace_peek_event (d->trace, run->open_wait);
      w->duration = r->time - w->time;
      w->flags |= WS_EVENT_FLAG_READIER_UNKNOWN;
      run->open_wait = WS_NONE;
      d->stats->waits_without_wakeup++;
    }
  if (run->woken_wait != WS_NONE)
    {
      if (switch_in)
        {
          WsEvent *w = ws_trace_peek_event (d->trace, run->woken_wait);
          w->ready_latency = (guint32) MIN (r->time - run->wake_time, (WsTime) G_MAXUINT32 - 1);
        }
      run->woken_wait = WS_NONE;
    }
  if (run->open_preempt != WS_NONE)
    {
      WsEvent *e = ws_trace_peek_event (d->trace, run->open_preempt);
      e->duration = r->time - e->time;
      run->open_preempt = WS_NONE;
    }
  if (start_span && run->open_span == WS_NONE)
    {
      Record span = *r;
      span.stack = WS_STACK_EMPTY;
      run->open_span = add_event (d, WS_EVENT_RUNNING, &span, thread, 0);
      ws_trace_peek_event (d->trace, run->open_span)->flags = WS_EVENT_FLAG_SPAN;
    }
}

static void
derive_switch (Deriver      *d,
               const Record *r)
{
  guint32 prev = r->a, next = r->b;
  char state = r->state;

  if (prev == d->idle)
    d->stats->idle_switches++;
  else
    {
      ThreadRun *run = &d->runs[prev];
      guint index;

      seen_running (d, prev, r, FALSE, FALSE);
      if (run->open_span != WS_NONE)
        {
          WsEvent *span = ws_trace_peek_event (d->trace, run->open_span);
          span->duration = r->time - span->time;
          run->open_span = WS_NONE;
        }

      if (state == 'R')
        {
          /* Still runnable: preempted, not blocked. */
          index = add_event (d, WS_EVENT_PREEMPT, r, prev, 0);
          ws_trace_peek_event (d->trace, index)->state = 'R';
          run->open_preempt = index;
        }
      else if (state == 'Z' || state == 'X')
        {
          /* Exiting: it never runs again, which is not a wait. */
          d->stats->exit_switches++;
        }
      else
        {
          WsEvent *w;

          index = add_event (d, WS_EVENT_WAIT, r, prev, 0);
          w = ws_trace_peek_event (d->trace, index);
          w->state = state ? state : '?';
          if (state == 'D')
            w->flags |= WS_EVENT_FLAG_UNINTERRUPTIBLE;
          run->open_wait = index;
          run->woken_wait = WS_NONE;
          run->waking_seen = FALSE;
        }
    }

  seen_running (d, next, r, TRUE, TRUE);
}

static void
derive_wake (Deriver      *d,
             const Record *r)
{
  guint32 waker = r->thread, target = r->a;
  gboolean hardware = (r->type & REC_INTERRUPT) != 0 || waker == d->idle;
  guint type = r->type & ~REC_INTERRUPT;
  ThreadRun *run = &d->runs[target];
  guint index;

  seen_running (d, waker, r, FALSE, TRUE);

  index = add_event (d, hardware ? WS_EVENT_HW_SERVICE : WS_EVENT_UNWAIT, r, waker, 0);
  ws_trace_peek_event (d->trace, index)->target = target;

  if (type == REC_WAKEUP && run->waking_seen)
    {
      /* The sched_wakeup that follows a sched_waking, often recorded on the
       * target CPU: its context is not the waker's. */
      ws_trace_peek_event (d->trace, index)->flags |= WS_EVENT_FLAG_ECHO;
      d->stats->echo_wakeups++;
      return;
    }

  if (run->open_wait != WS_NONE && target != d->idle)
    {
      WsEvent *w = ws_trace_peek_event (d->trace, run->open_wait);

      w->duration = r->time - w->time;
      w->peer = index;
      ws_trace_peek_event (d->trace, index)->peer = run->open_wait;
      run->woken_wait = run->open_wait;
      run->wake_time = r->time;
      run->open_wait = WS_NONE;
    }
  if (type == REC_WAKING)
    run->waking_seen = TRUE;
}

static gboolean
derive (Parser       *p,
        Progress     *progress,
        GCancellable *cancellable,
        GError      **error)
{
  RecordList *records = &p->records;
  guint n = records->n;
  guint n_threads = ws_trace_get_n_threads (p->trace);
  g_autofree ThreadRun *runs = g_new (ThreadRun, MAX (n_threads, 1));
  Deriver d = { p->trace, runs, ws_trace_find_thread (p->trace, 0), &p->stats };
  WsTime end_time = records->max_time;

  record_list_sort (records);

  /* Every record makes at most one event, plus one on-CPU span per
   * switch-in or first sign of running: at most one per switch record and
   * one per thread. */
  ws_trace_reserve_events (p->trace, n + records->n_switches + n_threads);

  for (guint i = 0; i < n_threads; i++)
    {
      runs[i].open_wait = runs[i].woken_wait = WS_NONE;
      runs[i].open_preempt = runs[i].open_span = WS_NONE;
      runs[i].wake_time = 0;
      runs[i].waking_seen = FALSE;
    }

  for (guint i = 0; i < n; i++)
    {
      const Record *r = record_list_get (records, i);

      /* The previous chunk is done with. */
      if (i % RECORDS_PER_CHUNK == 0 && i > 0)
        g_clear_pointer (&records->chunks->pdata[i / RECORDS_PER_CHUNK - 1], g_free);

      if ((i & 0xffff) == 0xffff)
        {
          if (g_cancellable_is_cancelled (cancellable))
            return set_error (error, p->display_name, p->line_no, WS_ERROR_CANCELLED,
                              _("import cancelled"));
          report (progress, 0.9 + 0.1 * i / n, _("Deriving waits"));
        }

      switch (r->type & ~REC_INTERRUPT)
        {
        case REC_SWITCH:
          derive_switch (&d, r);
          break;

        case REC_WAKING:
        case REC_WAKEUP:
          derive_wake (&d, r);
          break;

        case REC_SAMPLE:
          {
            /* The period column is up to 19 digits: past WS_TIME_MAX
             * it would make a negative duration or an end that
             * overflows; no real period comes near, so clamp. */
            guint64 period = ((guint64) r->b << 32) | r->a;

            seen_running (&d, r->thread, r, FALSE, TRUE);
            add_event (&d, WS_EVENT_RUNNING, r, r->thread,
                       (WsTime) MIN (period, (guint64) (WS_TIME_MAX - r->time)));
          }
          break;

        case REC_MARKER:
        default:
          {
            guint index;

            seen_running (&d, r->thread, r, FALSE, TRUE);
            index = add_event (&d, WS_EVENT_MARKER, r, r->thread, 0);
            ws_trace_peek_event (p->trace, index)->target = r->a;
          }
          break;
        }
    }

  /* What is still open at the end of the trace ends there. */
  for (guint t = 0; t < n_threads; t++)
    {
      guint32 open[3] = { runs[t].open_wait, runs[t].open_preempt, runs[t].open_span };

      for (guint k = 0; k < G_N_ELEMENTS (open); k++)
        if (open[k] != WS_NONE)
          {
            WsEvent *e = ws_trace_peek_event (p->trace, open[k]);
            e->duration = MAX (end_time - e->time, 0);
            e->flags |= WS_EVENT_FLAG_UNFINISHED;
          }
    }

  return TRUE;
}

/* Names and pids collected while parsing go to the trace's threads. */
static void
apply_thread_info (Parser *p)
{
  guint n_threads = ws_trace_get_n_threads (p->trace);

  for (guint i = 0; i < n_threads; i++)
    {
      const WsThread *thread = ws_trace_get_thread (p->trace, i);
      ThreadName *name = i < p->names->len ? &g_array_index (p->names, ThreadName, i) : NULL;
      TaskInfo *task = g_hash_table_lookup (p->tasks, GINT_TO_POINTER (thread->tid));
      const char *best = name ? name->name : NULL;

      if (thread->tid == 0)
        best = "swapper";
      else if (task != NULL)
        {
          if (thread->pid < 0 && task->pid >= 0)
            ws_trace_ensure_thread (p->trace, thread->tid, task->pid);
          if (task->name != NULL && (best == NULL || task->name_time > name->name_time))
            best = task->name;
        }
      if (best != NULL)
        ws_trace_set_thread_name (p->trace, i, best);
    }
}

/* ------------------------------------------------------------------------ */
/* perf.data                                                                  */
/* ------------------------------------------------------------------------ */

static WsTrace *load_source (const char *display_name, const char *path, GInputStream *stream,
                             guint64 total_size, WsStackTable *stacks, WsPerfImportStats *stats,
                             WsProgressFunc progress, gpointer progress_data,
                             GCancellable *cancellable, GError **error);

static gboolean
is_perf_data (const guint8 *head,
              gsize         len)
{
  return len >= 8 && memcmp (head, "PERFILE2", 8) == 0;
}

/*
 * A perf.data file is read through `perf script` (it knows the symbols,
 * the build-id cache and every format version), parsed as a stream.
 */
static WsTrace *
load_perf_data (const char        *display_name,
                const char        *path,
                WsStackTable      *stacks,
                WsPerfImportStats *stats,
                WsProgressFunc     progress,
                gpointer           progress_data,
                GCancellable      *cancellable,
                GError           **error)
{
  g_autoptr(GSubprocessLauncher) launcher = NULL;
  g_autoptr(GSubprocess) subprocess = NULL;
  g_autoptr(GError) local_error = NULL;
  g_autoptr(GError) perf_error = NULL;
  g_autofree char *perf = g_find_program_in_path ("perf");
  g_autofree char *stderr_path = NULL;
  g_autofree char *stderr_text = NULL;
  g_autoptr(WsTrace) trace = NULL;
  int fd;

  if (perf == NULL)
    {
      g_set_error (error, WS_ERROR, WS_ERROR_IO,
                   _("%s:1: this is a perf.data file; reading it needs the “perf” program "
                     "(Debian package linux-perf), which is not installed. "
                     "Install it, or convert the file with “perf script” first."),
                   display_name);
      return NULL;
    }

  /* perf's warnings go to a file: a full stderr pipe would block it. */
  fd = g_file_open_tmp ("waitscope-perf-XXXXXX.txt", &stderr_path, &local_error);
  if (fd < 0)
    {
      g_set_error (error, WS_ERROR, WS_ERROR_IO, "%s:1: %s", display_name, local_error->message);
      return NULL;
    }
  close (fd);

  launcher = g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_STDOUT_PIPE);
  g_subprocess_launcher_set_stderr_file_path (launcher, stderr_path);
  subprocess = g_subprocess_launcher_spawn (launcher, &local_error,
                                            perf, "script", "-f", "-i", path,
                                            "-F", "comm,tid,pid,cpu,time,event,trace,ip,sym,dso,period",
                                            "--show-task-events", NULL);
  if (subprocess == NULL)
    {
      g_set_error (error, WS_ERROR, WS_ERROR_IO, _("%s:1: could not run perf script: %s"),
                   display_name, local_error->message);
      g_unlink (stderr_path);
      return NULL;
    }

  trace = load_source (display_name, NULL, g_subprocess_get_stdout_pipe (subprocess), 0,
                       stacks, stats, progress, progress_data, cancellable, &local_error);
  if (trace == NULL)
    g_subprocess_force_exit (subprocess);
  g_subprocess_wait (subprocess, NULL, NULL);

  g_file_get_contents (stderr_path, &stderr_text, NULL, NULL);
  g_unlink (stderr_path);

  if (trace == NULL && g_error_matches (local_error, WS_ERROR, WS_ERROR_CANCELLED))
    {
      g_propagate_error (error, g_steal_pointer (&local_error));
      return NULL;
    }

  if (!g_subprocess_get_if_exited (subprocess) || g_subprocess_get_exit_status (subprocess) != 0)
    {
      /* perf's own words say best what is wrong with the file. */
      g_autofree char *why = g_strstrip (g_strdup (stderr_text ? stderr_text : ""));
      if (strlen (why) > 2000)
        why[2000] = '\0';
      g_set_error (error, WS_ERROR, WS_ERROR_PARSE, _("%s:1: perf script failed: %s"),
                   display_name, *why ? why : _("no message"));
      return NULL;
    }

  if (trace == NULL)
    {
      g_propagate_error (error, g_steal_pointer (&local_error));
      return NULL;
    }
  return g_steal_pointer (&trace);
}

/* A perf.data from a stream: perf needs a file, so copy it to one. */
static WsTrace *
load_perf_data_stream (const char        *display_name,
                       Source            *src,
                       WsStackTable      *stacks,
                       WsPerfImportStats *stats,
                       WsProgressFunc     progress,
                       gpointer           progress_data,
                       GCancellable      *cancellable,
                       GError           **error)
{
  g_autoptr(GError) local_error = NULL;
  g_autoptr(GFile) file = NULL;
  g_autoptr(GFileIOStream) io = NULL;
  g_autoptr(GFile) tmp_file = NULL;
  WsTrace *trace;
  GOutputStream *out;
  gsize written;

  tmp_file = g_file_new_tmp ("waitscope-XXXXXX.data", &io, &local_error);
  if (tmp_file == NULL)
    {
      g_set_error (error, WS_ERROR, WS_ERROR_IO, "%s:1: %s", display_name, local_error->message);
      return NULL;
    }
  out = g_io_stream_get_output_stream (G_IO_STREAM (io));
  if (!g_output_stream_write_all (out, src->head, src->head_len, &written, cancellable, &local_error) ||
      g_output_stream_splice (out, src->stream, G_OUTPUT_STREAM_SPLICE_CLOSE_TARGET,
                              cancellable, &local_error) < 0)
    {
      g_set_error (error, WS_ERROR, WS_ERROR_IO, "%s:1: %s", display_name, local_error->message);
      g_file_delete (tmp_file, NULL, NULL);
      return NULL;
    }

  {
    g_autofree char *tmp_path = g_file_get_path (tmp_file);
    trace = load_perf_data (display_name, tmp_path, stacks, stats, progress, progress_data,
                            cancellable, error);
  }
  g_file_delete (tmp_file, NULL, NULL);
  return trace;
}

/* ------------------------------------------------------------------------ */
/* Entry points                                                               */
/* ------------------------------------------------------------------------ */

static WsTrace *
load_source (const char        *display_name,
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
      source_clear (&src);
      return NULL;
    }
  src.head_len = head_len;
  src.input_bytes = head_len;
  if (head_len < HEAD_SIZE)
    src.eof = TRUE;

  if (head_len == 0)
    {
      set_error (error, display_name, 1, WS_ERROR_EMPTY, _("the file is empty"));
      source_clear (&src);
      return NULL;
    }

  if (is_perf_data (src.head, head_len))
    {
      WsTrace *result;

      if (path != NULL)
        result = load_perf_data (display_name, path, stacks, stats, progress_func, progress_data,
                                 cancellable, error);
      else
        result = load_perf_data_stream (display_name, &src, stacks, stats, progress_func,
                                        progress_data, cancellable, error);
      source_clear (&src);
      return result;
    }

  if (head_len >= 2 && src.head[0] == 0x1f && src.head[1] == 0x8b)
    {
      src.gzip = TRUE;
      src.zbuf = g_malloc (ZBUF_SIZE);
      /* 15 + 32: zlib window, gzip or zlib header detected automatically. */
      if (inflateInit2 (&src.z, 15 + 32) != Z_OK)
        {
          set_error (error, display_name, 1, WS_ERROR_IO, _("cannot start gzip decompression"));
          source_clear (&src);
          return NULL;
        }
      src.z_ready = TRUE;
    }

  trace = ws_trace_new (path ? path : display_name, stacks);
  parser_init (&p, display_name, trace);

  if (parse_source (&p, &src, &progress, cancellable, error))
    {
      if (p.stats.text_bytes == 0)
        set_error (error, display_name, 1, WS_ERROR_EMPTY, _("the file is empty"));
      else if (p.records.n == 0)
        set_error (error, display_name, p.line_no, WS_ERROR_EMPTY,
                   _("no perf events in this file"));
      else if (derive (&p, &progress, cancellable, error))
        {
          apply_thread_info (&p);
          ok = TRUE;
        }
    }

  if (stats != NULL)
    *stats = p.stats;
  parser_clear (&p);
  source_clear (&src);

  if (!ok)
    return NULL;

  ws_trace_finish (trace);
  report (&progress, 1.0, _("Reading perf events"));
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

  return load_source (path, path, G_INPUT_STREAM (stream), size, stacks, stats,
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

  return load_source (display_name ? display_name : "stdin", NULL, stream, 0, stacks, NULL,
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

  if (is_perf_data (head, len))
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

  s = (const char *) head;
  end = s + len;
  while (s < end && (*s == '\n' || *s == '\r'))
    s++;
  nl = memchr (s, '\n', end - s);
  {
    Header h;
    return parse_header (s, nl ? nl : end, &h);
  }
}
