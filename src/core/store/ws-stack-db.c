/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * WsStackDb: the input of costly-pattern mining (StackMine §V) and of the
 * cluster metrics (§II.B).  Every event of the area of interest contributes
 * its stack and cost; identical stacks are merged with their costs summed,
 * and each merged stack remembers how much of it came from which trace
 * stream, so that "number of trace streams" and the per-stream coverage of
 * Fig. 4 stay exact after merging.
 *
 * All stacks live in one WsStackTable: mining compares frame ids, so a frame
 * must have the same id whichever trace it came from.  Traces loaded with
 * their own tables are brought over with ws_stack_db_import_stack(), which
 * caches the id mapping per source table.
 */
#include "config.h"

#include "ws-hash.h"
#include "ws-stack-db.h"

typedef struct {
  char   *name;
  gint64  delay_total;   /* -1: not set, use the stream's cost */
  gint64  delay_max;     /* -1: not set, use the largest event cost */
  gint64  cost;
  gint64  max_event_cost;
  guint64 n_events;
} Stream;

typedef struct {
  guint32 entry;
  guint32 stream;
  guint32 n_events;
  gint64  cost;
} RawShare;

typedef struct {
  GArray *frames;  /* source frame id -> db frame id + 1 (0 = not yet) */
  GArray *stacks;  /* source stack id -> db stack id + 1 */
} Remap;

struct _WsStackDb
{
  GObject parent_instance;

  WsStackTable *table;
  GArray       *streams;        /* Stream */

  GArray       *entries;        /* WsStackDbEntry */
  GArray       *entry_of_stack; /* stack id -> entry index + 1 */
  GArray       *last_share;     /* entry index -> index into raw_shares */
  GArray       *raw_shares;     /* RawShare, in order of arrival */
  GHashTable   *share_index;    /* (entry << 32 | stream) -> raw share index + 1 */

  /* Built on demand from raw_shares: the shares of each entry, by stream. */
  GArray       *shares;         /* WsStackDbShare */
  gint          sealed;         /* atomic */
  GMutex        seal_lock;

  GHashTable   *remaps;         /* WsStackTable* (ref) -> Remap */

  gint64        total_cost;
  guint64       n_events;
};

G_DEFINE_FINAL_TYPE (WsStackDb, ws_stack_db, G_TYPE_OBJECT)

static void
stream_clear (gpointer data)
{
  g_free (((Stream *) data)->name);
}

static void
remap_free (gpointer data)
{
  Remap *remap = data;

  g_array_unref (remap->frames);
  g_array_unref (remap->stacks);
  g_free (remap);
}

static void
ws_stack_db_finalize (GObject *object)
{
  WsStackDb *self = WS_STACK_DB (object);

  g_clear_object (&self->table);
  g_array_unref (self->streams);
  g_array_unref (self->entries);
  g_array_unref (self->entry_of_stack);
  g_array_unref (self->last_share);
  g_array_unref (self->raw_shares);
  g_hash_table_unref (self->share_index);
  g_array_unref (self->shares);
  g_hash_table_unref (self->remaps);
  g_mutex_clear (&self->seal_lock);

  G_OBJECT_CLASS (ws_stack_db_parent_class)->finalize (object);
}

static void
ws_stack_db_class_init (WsStackDbClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = ws_stack_db_finalize;
}

static void
ws_stack_db_init (WsStackDb *self)
{
  g_mutex_init (&self->seal_lock);
  self->streams = g_array_new (FALSE, TRUE, sizeof (Stream));
  g_array_set_clear_func (self->streams, stream_clear);
  self->entries = g_array_new (FALSE, FALSE, sizeof (WsStackDbEntry));
  self->entry_of_stack = g_array_new (FALSE, TRUE, sizeof (guint32));
  self->last_share = g_array_new (FALSE, FALSE, sizeof (guint32));
  self->raw_shares = g_array_new (FALSE, FALSE, sizeof (RawShare));
  self->share_index = g_hash_table_new_full (ws_uint64_hash, g_int64_equal, g_free, NULL);
  self->shares = g_array_new (FALSE, FALSE, sizeof (WsStackDbShare));
  self->remaps = g_hash_table_new_full (g_direct_hash, g_direct_equal,
                                        g_object_unref, remap_free);
}

/**
 * ws_stack_db_new:
 * @table: (nullable): the stack table the stacks are (or will be) interned
 *   in; %NULL for a new one
 *
 * Returns: (transfer full): an empty database
 */
WsStackDb *
ws_stack_db_new (WsStackTable *table)
{
  WsStackDb *self;

  g_return_val_if_fail (table == NULL || WS_IS_STACK_TABLE (table), NULL);

  self = g_object_new (WS_TYPE_STACK_DB, NULL);
  self->table = table ? g_object_ref (table) : ws_stack_table_new ();
  return self;
}

/**
 * ws_stack_db_get_stack_table:
 *
 * Returns: (transfer none): the table all entries' stacks are interned in
 */
WsStackTable *
ws_stack_db_get_stack_table (WsStackDb *self)
{
  g_return_val_if_fail (WS_IS_STACK_DB (self), NULL);
  return self->table;
}

/**
 * ws_stack_db_add_stream:
 * @name: what to call the stream in reports (trace name, instance…)
 *
 * A trace stream of the StackMine paper: a trace file, or — when the
 * analysis treats each scenario instance as a symptom — one instance.
 *
 * Returns: the new stream's id (0, 1, 2… in order of creation)
 */
guint
ws_stack_db_add_stream (WsStackDb  *self,
                        const char *name)
{
  Stream stream = { 0 };

  g_return_val_if_fail (WS_IS_STACK_DB (self), 0);

  stream.name = g_strdup (name ? name : "");
  stream.delay_total = -1;
  stream.delay_max = -1;
  g_array_append_val (self->streams, stream);
  return self->streams->len - 1;
}

guint
ws_stack_db_get_n_streams (WsStackDb *self)
{
  g_return_val_if_fail (WS_IS_STACK_DB (self), 0);
  return self->streams->len;
}

const char *
ws_stack_db_get_stream_name (WsStackDb *self,
                             guint      stream)
{
  g_return_val_if_fail (WS_IS_STACK_DB (self), NULL);
  g_return_val_if_fail (stream < self->streams->len, NULL);
  return g_array_index (self->streams, Stream, stream).name;
}

/**
 * ws_stack_db_set_stream_delay:
 * @total: the stream's total response delay (ns), e.g. the summed duration
 *   of its slow scenario instances; negative to fall back to its cost
 * @max: its longest single delay (ns); negative to fall back to its
 *   costliest event
 *
 * The denominators of bottleneck coverage (§VII.A.2) and the keys of the
 * Greedy-Total / Greedy-Max rankings of Fig. 4.
 */
void
ws_stack_db_set_stream_delay (WsStackDb *self,
                              guint      stream,
                              gint64     total,
                              gint64     max)
{
  Stream *s;

  g_return_if_fail (WS_IS_STACK_DB (self));
  g_return_if_fail (stream < self->streams->len);

  s = &g_array_index (self->streams, Stream, stream);
  s->delay_total = total < 0 ? -1 : total;
  s->delay_max = max < 0 ? -1 : max;
}

gint64
ws_stack_db_get_stream_delay_total (WsStackDb *self,
                                    guint      stream)
{
  const Stream *s;

  g_return_val_if_fail (WS_IS_STACK_DB (self), 0);
  g_return_val_if_fail (stream < self->streams->len, 0);

  s = &g_array_index (self->streams, Stream, stream);
  return s->delay_total >= 0 ? s->delay_total : s->cost;
}

gint64
ws_stack_db_get_stream_delay_max (WsStackDb *self,
                                  guint      stream)
{
  const Stream *s;

  g_return_val_if_fail (WS_IS_STACK_DB (self), 0);
  g_return_val_if_fail (stream < self->streams->len, 0);

  s = &g_array_index (self->streams, Stream, stream);
  return s->delay_max >= 0 ? s->delay_max : s->max_event_cost;
}

/**
 * ws_stack_db_get_stream_cost:
 *
 * Returns: the summed cost of all events added for @stream
 */
gint64
ws_stack_db_get_stream_cost (WsStackDb *self,
                             guint      stream)
{
  g_return_val_if_fail (WS_IS_STACK_DB (self), 0);
  g_return_val_if_fail (stream < self->streams->len, 0);
  return g_array_index (self->streams, Stream, stream).cost;
}

/**
 * ws_stack_db_add:
 * @stream: a stream id from ws_stack_db_add_stream()
 * @stack: a stack interned in the database's table; the empty stack is
 *   ignored (it contains no pattern)
 * @cost: the summed cost of the @n_events events (ns, >= 0)
 * @n_events: how many events this adds (usually 1)
 *
 * Adds events with an identical stack, merging them into the stack's entry.
 */
void
ws_stack_db_add (WsStackDb *self,
                 guint      stream,
                 WsStackId  stack,
                 gint64     cost,
                 guint      n_events)
{
  ws_stack_db_add_merged (self, stream, stack, cost, n_events, n_events > 0 ? cost / n_events : 0);
}

/**
 * ws_stack_db_add_merged:
 * @max_cost: the costliest of the @n_events events (ns)
 *
 * ws_stack_db_add() of events already merged elsewhere (a digest's entry):
 * their summed @cost and their costliest one, which the stream's longest
 * delay needs.
 */
void
ws_stack_db_add_merged (WsStackDb *self,
                        guint      stream,
                        WsStackId  stack,
                        gint64     cost,
                        guint      n_events,
                        gint64     max_cost)
{
  Stream *s;
  guint32 entry, share;
  RawShare *raw;

  g_return_if_fail (WS_IS_STACK_DB (self));
  g_return_if_fail (stream < self->streams->len);
  g_return_if_fail (stack < ws_stack_table_get_n_stacks (self->table));
  g_return_if_fail (cost >= 0);

  if (stack == WS_STACK_EMPTY || n_events == 0)
    return;

  g_atomic_int_set (&self->sealed, FALSE);

  s = &g_array_index (self->streams, Stream, stream);
  s->cost += cost;
  s->n_events += n_events;
  s->max_event_cost = MAX (s->max_event_cost, max_cost);
  self->total_cost += cost;
  self->n_events += n_events;

  if (stack >= self->entry_of_stack->len)
    g_array_set_size (self->entry_of_stack, MAX (stack + 1, self->entry_of_stack->len * 2));
  entry = g_array_index (self->entry_of_stack, guint32, stack);

  if (entry == 0)
    {
      WsStackDbEntry e = { .stack = stack };

      g_array_append_val (self->entries, e);
      entry = self->entries->len;
      g_array_index (self->entry_of_stack, guint32, stack) = entry;
      share = G_MAXUINT32;
      g_array_append_val (self->last_share, share);
    }
  entry--;

  {
    WsStackDbEntry *e = &g_array_index (self->entries, WsStackDbEntry, entry);
    e->cost += cost;
    e->n_events += n_events;
    e->max_cost = MAX (e->max_cost, max_cost);
  }

  /* Events usually arrive stream by stream: the entry's last share is the
   * one to add to, and the hash is only needed when streams interleave. */
  share = g_array_index (self->last_share, guint32, entry);
  if (share == G_MAXUINT32 ||
      g_array_index (self->raw_shares, RawShare, share).stream != stream)
    {
      guint64 key = ws_hash_pack_pair (entry, stream);
      gpointer found = g_hash_table_lookup (self->share_index, &key);

      if (found != NULL)
        share = GPOINTER_TO_UINT (found) - 1;
      else
        {
          RawShare r = { .entry = entry, .stream = stream };

          g_array_append_val (self->raw_shares, r);
          share = self->raw_shares->len - 1;
          g_hash_table_insert (self->share_index, g_memdup2 (&key, sizeof key),
                               GUINT_TO_POINTER (share + 1));
          g_array_index (self->entries, WsStackDbEntry, entry).n_shares++;
        }
      g_array_index (self->last_share, guint32, entry) = share;
    }

  raw = &g_array_index (self->raw_shares, RawShare, share);
  raw->cost += cost;
  raw->n_events += n_events;
}

static Remap *
get_remap (WsStackDb    *self,
           WsStackTable *source)
{
  Remap *remap = g_hash_table_lookup (self->remaps, source);

  if (remap == NULL)
    {
      remap = g_new0 (Remap, 1);
      remap->frames = g_array_new (FALSE, TRUE, sizeof (guint32));
      remap->stacks = g_array_new (FALSE, TRUE, sizeof (guint32));
      g_hash_table_insert (self->remaps, g_object_ref (source), remap);
    }
  return remap;
}

/**
 * ws_stack_db_import_stack:
 * @source: the table @stack is interned in (a trace's own table)
 *
 * Interns @stack, frame by frame, in the database's table.  Mappings are
 * cached per source table, so importing every event of a trace costs one
 * array lookup per event after the first sight of each stack.
 *
 * Returns: the stack's id in ws_stack_db_get_stack_table()
 */
WsStackId
ws_stack_db_import_stack (WsStackDb    *self,
                          WsStackTable *source,
                          WsStackId     stack)
{
  Remap *remap;
  guint32 mapped;
  const WsFrameId *frames;
  g_autofree WsFrameId *copy = NULL;
  guint n;

  g_return_val_if_fail (WS_IS_STACK_DB (self), WS_STACK_EMPTY);
  g_return_val_if_fail (WS_IS_STACK_TABLE (source), WS_STACK_EMPTY);

  if (source == self->table || stack == WS_STACK_EMPTY)
    return stack;

  remap = get_remap (self, source);
  if (stack < remap->stacks->len &&
      (mapped = g_array_index (remap->stacks, guint32, stack)) != 0)
    return mapped - 1;

  frames = ws_stack_table_get_stack (source, stack, &n);
  if (frames == NULL)
    return WS_STACK_EMPTY;

  copy = g_new (WsFrameId, n);
  for (guint i = 0; i < n; i++)
    {
      guint32 f = frames[i];

      if (f >= remap->frames->len)
        g_array_set_size (remap->frames, MAX (f + 1, remap->frames->len * 2));
      mapped = g_array_index (remap->frames, guint32, f);
      if (mapped == 0)
        {
          const WsFrame *frame = ws_stack_table_get_frame (source, f);

          mapped = ws_stack_table_intern_frame (self->table, frame->function, frame->module) + 1;
          g_array_index (remap->frames, guint32, f) = mapped;
        }
      copy[i] = mapped - 1;
    }

  mapped = ws_stack_table_intern_stack (self->table, copy, n);
  if (stack >= remap->stacks->len)
    g_array_set_size (remap->stacks, MAX (stack + 1, remap->stacks->len * 2));
  g_array_index (remap->stacks, guint32, stack) = mapped + 1;
  return mapped;
}

/**
 * ws_stack_db_add_from:
 * @source: the table @stack is interned in
 *
 * ws_stack_db_add() of one event whose stack lives in another table.
 */
void
ws_stack_db_add_from (WsStackDb    *self,
                      guint         stream,
                      WsStackTable *source,
                      WsStackId     stack,
                      gint64        cost)
{
  g_return_if_fail (WS_IS_STACK_DB (self));

  ws_stack_db_add (self, stream, ws_stack_db_import_stack (self, source, stack), cost, 1);
}

static int
compare_raw_share (gconstpointer a,
                   gconstpointer b)
{
  const RawShare *x = a, *y = b;

  if (x->entry != y->entry)
    return x->entry < y->entry ? -1 : 1;
  if (x->stream != y->stream)
    return x->stream < y->stream ? -1 : 1;
  return 0;
}

static void
seal (WsStackDb *self)
{
  g_autoptr(GArray) sorted = NULL;
  g_autoptr(GMutexLocker) locker = NULL;

  /* Readers may be several worker threads: the first one indexes. */
  if (g_atomic_int_get (&self->sealed))
    return;
  locker = g_mutex_locker_new (&self->seal_lock);
  if (self->sealed)
    return;

  sorted = g_array_copy (self->raw_shares);
  g_array_sort (sorted, compare_raw_share);
  g_array_set_size (self->shares, sorted->len);

  for (guint i = 0; i < sorted->len; i++)
    {
      const RawShare *r = &g_array_index (sorted, RawShare, i);
      WsStackDbShare *s = &g_array_index (self->shares, WsStackDbShare, i);
      WsStackDbEntry *e = &g_array_index (self->entries, WsStackDbEntry, r->entry);

      s->stream = r->stream;
      s->n_events = r->n_events;
      s->cost = r->cost;
      if (i == 0 || g_array_index (sorted, RawShare, i - 1).entry != r->entry)
        e->first_share = i;
    }

  g_atomic_int_set (&self->sealed, TRUE);
}

/**
 * ws_stack_db_get_n_entries:
 *
 * Returns: the number of distinct stacks
 */
guint
ws_stack_db_get_n_entries (WsStackDb *self)
{
  g_return_val_if_fail (WS_IS_STACK_DB (self), 0);
  return self->entries->len;
}

/**
 * ws_stack_db_get_entry:
 *
 * Reading is safe from several threads once the database is no longer
 * added to and has been read once (the first read indexes the shares).
 *
 * Returns: (transfer none): entry @index
 */
const WsStackDbEntry *
ws_stack_db_get_entry (WsStackDb *self,
                       guint      index)
{
  g_return_val_if_fail (WS_IS_STACK_DB (self), NULL);
  g_return_val_if_fail (index < self->entries->len, NULL);

  seal (self);
  return &g_array_index (self->entries, WsStackDbEntry, index);
}

/**
 * ws_stack_db_get_shares:
 * @n_shares: (out): the number of shares
 *
 * Returns: (transfer none) (array length=n_shares): the entry's cost per
 *   trace stream, by increasing stream id
 */
const WsStackDbShare *
ws_stack_db_get_shares (WsStackDb *self,
                        guint      index,
                        guint     *n_shares)
{
  const WsStackDbEntry *e;

  g_return_val_if_fail (WS_IS_STACK_DB (self), NULL);
  g_return_val_if_fail (n_shares != NULL, NULL);
  g_return_val_if_fail (index < self->entries->len, NULL);

  e = ws_stack_db_get_entry (self, index);
  *n_shares = e->n_shares;
  return &g_array_index (self->shares, WsStackDbShare, e->first_share);
}

/**
 * ws_stack_db_get_frames:
 * @n_frames: (out): the stack's depth
 *
 * Returns: (transfer none) (array length=n_frames): the entry's frames,
 *   caller first
 */
const WsFrameId *
ws_stack_db_get_frames (WsStackDb *self,
                        guint      index,
                        guint     *n_frames)
{
  g_return_val_if_fail (WS_IS_STACK_DB (self), NULL);
  g_return_val_if_fail (index < self->entries->len, NULL);

  return ws_stack_table_get_stack (self->table,
                                   g_array_index (self->entries, WsStackDbEntry, index).stack,
                                   n_frames);
}

gint64
ws_stack_db_get_total_cost (WsStackDb *self)
{
  g_return_val_if_fail (WS_IS_STACK_DB (self), 0);
  return self->total_cost;
}

guint64
ws_stack_db_get_n_events (WsStackDb *self)
{
  g_return_val_if_fail (WS_IS_STACK_DB (self), 0);
  return self->n_events;
}
