/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

/*
 * Shared between the perf importer's files, one per job:
 *   ws-perf-source.c   reading, gzip inflation, progress
 *   ws-perf-header.c   recognising an event header line in any layout
 *   ws-perf-text.c     parsing perf script text into records (first pass)
 *   ws-perf-derive.c   deriving waits, wake-ups and spans (second pass)
 *   ws-perf-script.c   running `perf script` on a perf.data file
 *   ws-perf-importer.c the entry points and the sniffer
 */

#include <string.h>
#include <zlib.h>

#include "ws-error.h"
#include "ws-perf-importer.h"
#include "ws-trace-private.h"

G_BEGIN_DECLS

/* Text is parsed in chunks this big; the buffer also holds one partial line. */
#define CHUNK_SIZE   (4 * 1024 * 1024)
#define BUFFER_SIZE  (CHUNK_SIZE + WS_PERF_IMPORTER_MAX_LINE + 1)
#define ZBUF_SIZE    (256 * 1024)
#define HEAD_SIZE    (64 * 1024)

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
  guint32 name;    /* SAMPLE: the event's name (string id) */
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

/* Per thread index, filled while parsing. */
typedef struct {
  char   *name;
  gsize   name_len;
  gint64  name_time;
  char   *comm;         /* the comm of its last event header, in file order */
  gsize   comm_len;
  guint   n_comms;      /* how many times that changed */
} ThreadName;

/* A thread's header comm from @time on. */
typedef struct {
  guint32  thread;
  gint64   time;
  char    *name;
} CommChange;

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
  gint32  pid;
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
  GArray         *comm_changes;  /* CommChange */

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
  GHashTable     *lifetimes;     /* a reused tid -> GArray of its threads */
  guint8         *frame_irq;     /* by frame id: 0 unknown, 1 no, 2 yes */
  gsize           frame_irq_len;
  guint8         *stack_irq;     /* by stack id, the same */
  gsize           stack_irq_len;

  guint64         line_no;
  gboolean        last_line;
  guint           n_headers;     /* event headers read */
  gboolean        untimed;       /* the first header had no timestamp */
  gboolean        in_time_order; /* events come in time order even when their
                                  * records do not (trace-cmd holds each CPU's
                                  * last event for its stack) */
  gint64          first_time;    /* the earliest event header's time */     /* the current line had no '\n' */
  WsPerfImportStats stats;
} Parser;

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


/* One event header line, as ws_perf_parse_header() found it. */
typedef struct {
  const char *comm;
  gsize       comm_len;
  gint32      pid;         /* -1 when the layout has TID (or PID) alone */
  gint32      tid;
  guint       cpu;
  gint64      time;
  guint64     period;
  const char *event;       /* the name, without its ':' */
  gsize       event_len;
  const char *rest;        /* after "event: " (fields, or a sample's "ip sym (dso)") */
  gboolean    has_cpu;
  gboolean    has_time;
  gboolean    has_period;
  gboolean    task_line;   /* a PERF_RECORD_* line; rest points at it */
} Header;

typedef struct {
  GInputStream *stream;
  /* Bytes read to sniff the format, handed out first. */
  guint8       *head;
  gsize         head_len;
  gsize         head_pos;
  gboolean      eof;
  guint64       input_bytes;
  guint64       inflated_bytes;   /* text out of zlib, for the gzip ceiling */

  gboolean      gzip;
  gboolean      z_ready;
  gboolean      z_member_done;
  z_stream      z;
  guint8       *zbuf;
} Source;

typedef enum {
  SOURCE_OK,
  SOURCE_IO_ERROR,
  SOURCE_TRUNCATED,
  SOURCE_CORRUPT,
  SOURCE_BOMB,       /* past the gzip ceiling (ws-inflate-limit.h); error set */
} SourceStatus;

typedef struct {
  WsProgressFunc  func;
  gpointer        data;
  guint64         total;      /* input bytes, 0 if unknown (a stream) */
  double          last;
  gint64          last_time;
} Progress;

static inline gboolean
ws_perf_is_perf_data (const guint8 *head,
                      gsize         len)
{
  return len >= 8 && memcmp (head, "PERFILE2", 8) == 0;
}

/* ws-perf-data.c */
gboolean      ws_perf_data_check_header  (const char        *display_name,
                                          const char        *path,
                                          GError           **error);

/* ws-perf-importer.c */
G_GNUC_PRINTF (5, 6)
gboolean      ws_perf_set_error          (GError           **error,
                                          const char        *file,
                                          guint64            line,
                                          WsError            code,
                                          const char        *format,
                                          ...);
WsTrace      *ws_perf_load_source        (const char        *display_name,
                                          const char        *path,
                                          GInputStream      *stream,
                                          guint64            total_size,
                                          WsStackTable      *stacks,
                                          WsPerfImportStats *stats,
                                          WsProgressFunc     progress,
                                          gpointer           progress_data,
                                          GCancellable      *cancellable,
                                          GError           **error);

/* ws-perf-source.c */
SourceStatus  ws_perf_source_read        (Source            *src,
                                          guint8            *dst,
                                          gsize              len,
                                          gsize             *n_read,
                                          GCancellable      *cancellable,
                                          GError           **error);
void          ws_perf_source_clear       (Source            *src);

/* ws-perf-prefetch.c: the source read ahead on a thread of its own */
typedef struct _WsPerfPrefetch WsPerfPrefetch;
WsPerfPrefetch *ws_perf_prefetch_start   (Source            *src,
                                          GCancellable      *cancellable);
SourceStatus  ws_perf_prefetch_read      (WsPerfPrefetch    *self,
                                          guint8            *dst,
                                          gsize              len,
                                          gsize             *n_read,
                                          guint64           *input_bytes,
                                          GError           **error);
void          ws_perf_prefetch_free      (WsPerfPrefetch    *self);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (WsPerfPrefetch, ws_perf_prefetch_free)
gsize         ws_perf_count_lines        (const guint8      *s,
                                          const guint8      *end);
void          ws_perf_report             (Progress          *progress,
                                          double             fraction,
                                          const char        *message);

/* ws-perf-header.c */
gboolean      ws_perf_parse_header       (const char        *line,
                                          const char        *end,
                                          Header            *h);
const char   *ws_perf_describe_bad_header (const char       *line,
                                          const char        *end);

/* ws-perf-text.c */
void          ws_perf_parser_init        (Parser            *p,
                                          const char        *display_name,
                                          WsTrace           *trace);
void          ws_perf_parser_clear       (Parser            *p);
gboolean      ws_perf_parse_source       (Parser            *p,
                                          Source            *src,
                                          Progress          *progress,
                                          GCancellable      *cancellable,
                                          GError           **error);

/* ws-perf-text.c: the first pass fed by a reader of another format */
typedef enum {
  WS_PERF_TASK_FORK,
  WS_PERF_TASK_EXIT,
  WS_PERF_TASK_COMM,
} WsPerfTask;

guint32       ws_perf_parser_thread      (Parser            *p,
                                          gint32             tid,
                                          gint32             pid);
void          ws_perf_parser_name_thread (Parser            *p,
                                          guint32            thread,
                                          gint32             tid,
                                          const char        *name,
                                          gsize              len,
                                          gint64             time,
                                          gboolean           own_comm);
RecordType    ws_perf_parser_event_type  (Parser            *p,
                                          const char        *name,
                                          gsize              len,
                                          guint32           *marker_id);
void          ws_perf_parser_task        (Parser            *p,
                                          WsPerfTask         what,
                                          gint32             pid,
                                          gint32             tid,
                                          gint32             ppid,
                                          const char        *comm,
                                          gint64             time);
char          ws_perf_state_letter       (guint64            state);
void          ws_perf_parser_switch      (Parser            *p,
                                          Record            *rec,
                                          gint32             tid,
                                          gint32             pid,
                                          gint32             prev_pid,
                                          const char        *prev_comm,
                                          gsize              prev_len,
                                          guint64            prev_state,
                                          gint32             next_pid,
                                          const char        *next_comm,
                                          gsize              next_len);
void          ws_perf_parser_wake        (Parser            *p,
                                          Record            *rec,
                                          gint32             target,
                                          const char        *comm,
                                          gsize              len);
gint32        ws_perf_parser_task_pid    (Parser            *p,
                                          gint32             tid);
void          ws_perf_parser_task_process (Parser           *p,
                                          gint32             tid,
                                          gint32             pid);
void          ws_perf_parser_add_record  (Parser            *p,
                                          const Record      *r,
                                          const WsFrameId   *frames,
                                          guint              n_frames);

/* ws-perf-derive.c */
gboolean      ws_perf_derive             (Parser            *p,
                                          Progress          *progress,
                                          GCancellable      *cancellable,
                                          GError           **error);
void          ws_perf_apply_thread_info  (Parser            *p);

/* ws-perf-script.c */
WsTrace      *ws_perf_script_load        (const char        *display_name,
                                          const char        *path,
                                          WsStackTable      *stacks,
                                          WsPerfImportStats *stats,
                                          WsProgressFunc     progress,
                                          gpointer           progress_data,
                                          GCancellable      *cancellable,
                                          GError           **error);
WsTrace      *ws_perf_script_load_stream (const char        *display_name,
                                          Source            *src,
                                          WsStackTable      *stacks,
                                          WsPerfImportStats *stats,
                                          WsProgressFunc     progress,
                                          gpointer           progress_data,
                                          GCancellable      *cancellable,
                                          GError           **error);

/* ws-perf-cmdline.c: the header's "cmdline" of perf.data @path, onto
 * @trace (ws_trace_set_record_command()); nothing if perf cannot say. */
void      ws_perf_data_read_record_command (WsTrace    *trace,
                                            const char *path);

G_END_DECLS
