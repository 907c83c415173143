/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Block-layer requests: `block_rq_issue` paired with `block_rq_complete`.
 * The kernel gives a request no identifier in these tracepoints; what
 * both print is the device, the operation and the sector range, and a
 * range is in flight once at a time, so the oldest open issue of the same
 * key is the one completed (blktrace and bcc's biolatency pair them the
 * same way).  A flush has no sector range (issued "0 + 0", completed
 * "18446744073709551615 + 0"): flushes pair in order of issue per device.
 */
#include "config.h"

#include <string.h>

#include "ws-block-requests.h"

typedef struct {
  WsTime   time;
  guint64  sector;
  guint32  n_sectors;
  guint32  bytes;
  guint32  device;
  guint32  thread;
  guint32  seq;       /* order of arrival: keeps equal times stable */
  gchar    op;
  gboolean issue;
} Record;

struct _WsBlockRequests {
  GArray  *records;   /* Record, until finished */
  GArray  *requests;  /* WsBlockRequest, by issue */
  WsTime   longest;
  guint    n_orphans;
  guint    n_unfinished;
  guint    n_by_wait;
};

typedef struct {
  guint64 sector;
  guint32 n_sectors;
  guint32 device;
  gchar   op;
} Key;

static guint
key_hash (gconstpointer p)
{
  const Key *k = p;

  return (guint) (k->sector ^ (k->sector >> 32)) * 31u + k->n_sectors * 17u + k->device * 7u + (guchar) k->op;
}

static gboolean
key_equal (gconstpointer a,
           gconstpointer b)
{
  const Key *x = a, *y = b;

  return x->sector == y->sector && x->n_sectors == y->n_sectors && x->device == y->device && x->op == y->op;
}

static Key
record_key (const Record *r)
{
  /* a flush's sector differs between its issue and its completion */
  Key k = { r->n_sectors == 0 ? G_MAXUINT64 : r->sector, r->n_sectors, r->device, r->op };

  return k;
}

WsBlockRequests *
ws_block_requests_new (void)
{
  WsBlockRequests *self = g_new0 (WsBlockRequests, 1);

  self->records = g_array_new (FALSE, FALSE, sizeof (Record));
  self->requests = g_array_new (FALSE, FALSE, sizeof (WsBlockRequest));
  return self;
}

void
ws_block_requests_free (WsBlockRequests *self)
{
  if (self == NULL)
    return;
  g_clear_pointer (&self->records, g_array_unref);
  g_array_unref (self->requests);
  g_free (self);
}

void
ws_block_requests_add_issue (WsBlockRequests *self,
                             WsTime           time,
                             guint            thread,
                             guint32          device,
                             gchar            op,
                             guint64          sector,
                             guint32          n_sectors,
                             guint32          bytes)
{
  Record r = { time, sector, n_sectors, bytes, device, thread, 0, op, TRUE };

  g_return_if_fail (self->records != NULL);
  r.seq = self->records->len;
  g_array_append_val (self->records, r);
}

void
ws_block_requests_add_complete (WsBlockRequests *self,
                                WsTime           time,
                                guint32          device,
                                gchar            op,
                                guint64          sector,
                                guint32          n_sectors)
{
  Record r = { time, sector, n_sectors, 0, device, WS_NONE, 0, op, FALSE };

  g_return_if_fail (self->records != NULL);
  r.seq = self->records->len;
  g_array_append_val (self->records, r);
}

/* By time; at one time an issue before a completion (a request completed
 * in the same nanosecond it was issued), else in arrival order. */
static int
compare_records (gconstpointer a,
                 gconstpointer b)
{
  const Record *x = a, *y = b;

  if (x->time != y->time)
    return x->time < y->time ? -1 : 1;
  if (x->issue != y->issue)
    return x->issue ? -1 : 1;
  return x->seq < y->seq ? -1 : x->seq > y->seq;
}

static int
compare_requests (gconstpointer a,
                  gconstpointer b)
{
  const WsBlockRequest *x = a, *y = b;

  return x->issue < y->issue ? -1 : x->issue > y->issue;
}

void
ws_block_requests_finish (WsBlockRequests *self,
                          WsBlockWaitEnd   wait_end,
                          gpointer         user_data)
{
  g_autoptr(GHashTable) open = NULL;   /* Key -> GQueue of request indices */

  if (self->records == NULL)
    return;   /* finished already: a trace may be finished again */

  g_array_sort (self->records, compare_records);
  open = g_hash_table_new_full (key_hash, key_equal, g_free, (GDestroyNotify) g_queue_free);
  for (guint i = 0; i < self->records->len; i++)
    {
      const Record *r = &g_array_index (self->records, Record, i);
      Key k = record_key (r);
      GQueue *q = g_hash_table_lookup (open, &k);

      if (r->issue)
        {
          WsBlockRequest req = { r->time, WS_TIME_MAX, r->sector,
                                 r->bytes > 0 || r->n_sectors == 0 ? r->bytes
                                                                   : (guint32) MIN ((guint64) r->n_sectors * 512, G_MAXUINT32),
                                 r->device, r->thread, r->op, WS_BLOCK_REQUEST_UNFINISHED };

          if (q == NULL)
            g_hash_table_insert (open, g_memdup2 (&k, sizeof k), (q = g_queue_new ()));
          g_queue_push_tail (q, GUINT_TO_POINTER (self->requests->len));
          g_array_append_val (self->requests, req);
        }
      else if (q != NULL && !g_queue_is_empty (q))
        {
          WsBlockRequest *req = &g_array_index (self->requests, WsBlockRequest,
                                                GPOINTER_TO_UINT (g_queue_pop_head (q)));
          req->complete = r->time;
          req->flags &= ~WS_BLOCK_REQUEST_UNFINISHED;
        }
      else
        self->n_orphans++;
    }
  for (guint i = 0; i < self->requests->len; i++)
    {
      WsBlockRequest *req = &g_array_index (self->requests, WsBlockRequest, i);

      if (req->flags & WS_BLOCK_REQUEST_UNFINISHED)
        {
          WsTime end = wait_end != NULL ? wait_end (req->thread, req->issue, user_data) : -1;

          self->n_unfinished++;
          self->n_by_wait += end >= req->issue;
          req->complete = end >= req->issue ? end : req->issue;
        }
      self->longest = MAX (self->longest, req->complete - req->issue);
    }
  /* issues were appended in time order already; kept sorted for readers */
  g_array_sort (self->requests, compare_requests);
  g_clear_pointer (&self->records, g_array_unref);
}

guint
ws_block_requests_get_n (const WsBlockRequests *self)
{
  return self != NULL ? self->requests->len : 0;
}

const WsBlockRequest *
ws_block_requests_get (const WsBlockRequests *self,
                       guint                  index)
{
  g_return_val_if_fail (self != NULL && index < self->requests->len, NULL);
  return &g_array_index (self->requests, WsBlockRequest, index);
}

WsTime
ws_block_requests_get_longest (const WsBlockRequests *self)
{
  return self != NULL ? self->longest : 0;
}

guint
ws_block_requests_get_n_orphans (const WsBlockRequests *self)
{
  return self != NULL ? self->n_orphans : 0;
}

guint
ws_block_requests_get_n_unfinished (const WsBlockRequests *self,
                                    guint                 *n_by_wait)
{
  if (n_by_wait != NULL)
    *n_by_wait = self != NULL ? self->n_by_wait : 0;
  return self != NULL ? self->n_unfinished : 0;
}

static const char *
skip_spaces (const char *s,
             const char *end)
{
  while (s < end && *s == ' ')
    s++;
  return s;
}

/* A decimal number into @out; the character after it. NULL if none. */
static const char *
parse_u64 (const char *s,
           const char *end,
           guint64    *out)
{
  guint64 v = 0;
  const char *start = s;

  for (; s < end && g_ascii_isdigit (*s); s++)
    {
      guint d = *s - '0';
      if (v > (G_MAXUINT64 - d) / 10)
        return NULL;
      v = v * 10 + d;
    }
  *out = v;
  return s > start ? s : NULL;
}

/**
 * ws_block_op_from_rwbs:
 * @rwbs: the tracepoint's rwbs flags ("WS", "FWS", "R", …), @len bytes
 *
 * The operation they name: an optional leading 'F' is a preflush, then
 * the operation (W, D, F, R, N, E), else 'N'.
 */
gchar
ws_block_op_from_rwbs (const char *rwbs,
                       gsize       len)
{
  gchar op;

  if (len == 0)
    return 'N';
  op = rwbs[0] == 'F' && len > 1 && rwbs[1] != '\0' && strchr ("WDFRN", rwbs[1]) != NULL ? rwbs[1] : rwbs[0];
  return op != '\0' && strchr ("WDFRNE", op) != NULL ? op : 'N';
}

/*
 * ws_block_op_from_lttng_rwbs:
 * @flags: LTTng's integer rwbs field (lttng-modules'
 *   include/instrumentation/events/block.h: WRITE 1, DISCARD 2, READ 4,
 *   FLUSH 256; the others — read-ahead, sync, meta, secure, FUA,
 *   preflush — qualify the operation)
 *
 * The operation, by the same letters as ws_block_op_from_rwbs(): LTTng
 * sets one operation bit where the kernel prints one operation letter
 * (and a preflush, its leading 'F', as a flag bit of its own).
 */
gchar
ws_block_op_from_lttng_rwbs (guint64 flags)
{
  if (flags & 2)
    return 'D';
  if (flags & 1)
    return 'W';
  if (flags & 256)
    return 'F';
  if (flags & 4)
    return 'R';
  return 'N';
}

gboolean
ws_block_parse_fields (const char *s,
                       const char *end,
                       gboolean    issue,
                       guint32    *device,
                       gchar      *op,
                       guint64    *sector,
                       guint32    *n_sectors,
                       guint32    *bytes)
{
  guint64 major, minor, v, n;
  const char *rwbs;

  s = skip_spaces (s, end);
  if ((s = parse_u64 (s, end, &major)) == NULL || s >= end || *s != ',' ||
      (s = parse_u64 (s + 1, end, &minor)) == NULL || major >= 4096 || minor >= (1u << 20))
    return FALSE;
  *device = (guint32) (major << 20 | minor);
  /* rwbs: an optional 'F' (preflush), the operation, then flags */
  rwbs = s = skip_spaces (s, end);
  while (s < end && *s != ' ')
    s++;
  if (s == rwbs)
    return FALSE;
  *op = ws_block_op_from_rwbs (rwbs, s - rwbs);
  if (issue)
    {
      if ((s = parse_u64 (skip_spaces (s, end), end, &v)) == NULL || v > G_MAXUINT32)
        return FALSE;
      *bytes = (guint32) v;
    }
  /* the command, "(…)", empty but for passthrough requests */
  s = skip_spaces (s, end);
  if (s >= end || *s != '(' || (s = memchr (s, ')', end - s)) == NULL)
    return FALSE;
  if ((s = parse_u64 (skip_spaces (s + 1, end), end, &v)) == NULL)
    return FALSE;
  s = skip_spaces (s, end);
  if (s >= end || *s != '+' || (s = parse_u64 (skip_spaces (s + 1, end), end, &n)) == NULL || n > G_MAXUINT32)
    return FALSE;
  *sector = v;
  *n_sectors = (guint32) n;
  return TRUE;
}

char *
ws_block_device_to_string (guint32 device)
{
  return g_strdup_printf ("%u:%u", WS_BLOCK_DEVICE_MAJOR (device), WS_BLOCK_DEVICE_MINOR (device));
}
