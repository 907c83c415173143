/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Levels of detail for the timeline.  A million events spread over a few
 * hundred threads cannot be walked on every frame: the events of one
 * thread are scattered through the time-sorted event array, so each one is
 * a cache miss.  Instead each thread's run/wait history is turned once into
 * dense arrays of state segments, and coarser copies of them in which
 * everything shorter than a bucket has been merged into its bucket's
 * dominant state.  Drawing picks the coarsest level whose buckets are still
 * no wider than a pixel, so it touches at most a couple of segments per
 * pixel column whatever the trace size.
 */
#include "config.h"

#include <glib/gi18n-lib.h>
#include <stdlib.h>
#include <string.h>

#include "ws-error.h"
#include "ws-threads-env.h"
#include "ws-timeline-lod-private.h"

#define LEVEL_FACTOR 4
#define MAX_LEVELS   24
#define MAX_WAIT_LEVELS 12
#define LONG_WAIT_QUANTILE 0.99

typedef struct {
  WsTime          bucket;      /* 0 = exact */
  WsStateSegment *segs;
  guint           n;
} SegLevel;

typedef struct {
  WsTime     bucket;
  WsLodMark *marks;
  guint      n;
} MarkLevel;

/* Waits of at least @min_duration, by start time. */
typedef struct {
  WsTime     min_duration;
  WsLodWait *waits;
  guint      n;
} WaitLevel;

typedef struct {
  SegLevel      seg_levels[MAX_LEVELS];
  guint         n_seg_levels;
  MarkLevel     mark_levels[MAX_LEVELS];
  guint         n_mark_levels;
  WaitLevel     wait_levels[MAX_WAIT_LEVELS];
  guint         n_wait_levels;
  WsLodWait    *long_waits;
  guint         n_long_waits;
  guint32      *instances;     /* scenario instances of the thread, by t0 */
  guint         n_instances;
  WsThreadStats stats;
} ThreadLod;

struct _WsTimelineLod
{
  GObject    parent_instance;

  WsTrace   *trace;
  ThreadLod *threads;
  guint      n_threads;
  gsize      memory;
  WsTime     long_threshold;
  WsTime     slowest_instance;
};

G_DEFINE_FINAL_TYPE (WsTimelineLod, ws_timeline_lod, G_TYPE_OBJECT)

static void
ws_timeline_lod_finalize (GObject *object)
{
  WsTimelineLod *self = WS_TIMELINE_LOD (object);

  for (guint t = 0; t < self->n_threads; t++)
    {
      for (guint l = 0; l < self->threads[t].n_seg_levels; l++)
        g_free (self->threads[t].seg_levels[l].segs);
      for (guint l = 0; l < self->threads[t].n_mark_levels; l++)
        g_free (self->threads[t].mark_levels[l].marks);
      for (guint l = 0; l < self->threads[t].n_wait_levels; l++)
        g_free (self->threads[t].wait_levels[l].waits);
      g_free (self->threads[t].long_waits);
      g_free (self->threads[t].instances);
    }
  g_free (self->threads);
  g_clear_object (&self->trace);

  G_OBJECT_CLASS (ws_timeline_lod_parent_class)->finalize (object);
}

static void
ws_timeline_lod_class_init (WsTimelineLodClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = ws_timeline_lod_finalize;
}

static void
ws_timeline_lod_init (WsTimelineLod *self)
{
}

/* Every bucket is a power of two (256·4^k ns), so the bucket of a time
 * is a shift, not a division: a 64-bit division per segment and eight per
 * mixed bucket put bucketer_flush() on top of the profile (perf, 2 GB
 * trace).  GCC
 * shifts a negative number arithmetically, which floors, as the division
 * rounded to minus infinity did. */
static inline WsTime
floor_shift (WsTime a,
             guint  shift)
{
  return a >> shift;
}

static guint
bucket_shift (WsTime bucket)
{
  guint shift = 0;

  g_assert (bucket > 0 && (bucket & (bucket - 1)) == 0);
  while ((G_GINT64_CONSTANT (1) << shift) < bucket)
    shift++;
  return shift;
}

static void
append_seg (GArray *segs,
            WsTime  t0,
            WsTime  t1,
            guint8  state)
{
  WsStateSegment seg = { 0 };

  seg.t0 = t0;
  seg.t1 = t1;
  seg.state = state;
  if (t1 > t0)
    g_array_append_val (segs, seg);
}

/* Level 0 from the thread's exact spans (ws-thread-state.c, the one
 * definition of what state a thread is in), with touching spans of one
 * state merged: that keeps the arrays small. */
static GArray *
level0_from_spans (const GArray *spans)
{
  const WsStateSpan *s = (const WsStateSpan *) (gconstpointer) spans->data;
  GArray *segs = g_array_sized_new (FALSE, FALSE, sizeof (WsStateSegment), spans->len);

  for (guint i = 0; i < spans->len; i++)
    {
      WsStateSegment *last = segs->len ? &g_array_index (segs, WsStateSegment, segs->len - 1) : NULL;

      if (last != NULL && last->t1 == s[i].t0 && last->state == s[i].state)
        last->t1 = s[i].t1;
      else
        append_seg (segs, s[i].t0, s[i].t1, s[i].state);
    }
  return segs;
}

/* A growing array of segments appended to in place: GArray's
 * g_array_append_vals() is a call and a memcpy per segment, a fifth of
 * the build's time (perf, 2 GB trace). */
typedef struct {
  WsStateSegment *segs;
  guint           n;
  guint           cap;
} SegVec;

static inline WsStateSegment *
seg_vec_push (SegVec *v)
{
  if (G_UNLIKELY (v->n == v->cap))
    {
      v->cap = MAX (v->cap * 2, 16);
      v->segs = g_renew (WsStateSegment, v->segs, v->cap);
    }
  return &v->segs[v->n++];
}

/* The segments a coarser level builds up, bucket by bucket.  @touched has
 * bit s set when @acc[s] > 0, so that a bucket of one state (most of them)
 * is told without looking at every state. */
typedef struct {
  SegVec  out;
  WsTime  bucket;
  guint   shift;      /* bucket = 1 << shift */
  WsTime  cur;        /* current bucket index, or G_MININT64 */
  guint   touched;
  WsTime  acc[WS_N_THREAD_STATES];
} Bucketer;

static inline void
bucketer_add (Bucketer *b,
              guint     state,
              WsTime    time)
{
  if (time > 0)
    {
      b->acc[state] += time;
      b->touched |= 1u << state;
    }
}

static void
bucketer_emit (Bucketer *b,
               WsTime    first,
               WsTime    last_exclusive,
               guint8    state)
{
  WsTime t0 = first * b->bucket;
  WsTime t1 = last_exclusive * b->bucket;
  WsStateSegment *seg;

  if (b->out.n > 0)
    {
      WsStateSegment *prev = &b->out.segs[b->out.n - 1];
      if (!prev->mixed && prev->state == state && prev->t1 == t0)
        {
          prev->t1 = t1;
          return;
        }
    }
  if (t1 <= t0)
    return;
  seg = seg_vec_push (&b->out);
  *seg = (WsStateSegment) { 0 };
  seg->t0 = t0;
  seg->t1 = t1;
  seg->state = state;
}

static void
bucketer_flush (Bucketer *b)
{
  guint touched = b->touched;
  guint best = 0;
  WsTime best_time = 0;
  WsStateSegment *seg;

  if (b->cur == G_MININT64)
    return;
  if (touched == 0)
    {
      b->cur = G_MININT64;
      return;
    }
  /* Dominant state by time, the first on ties; empty time never wins, so
   * a short burst in an otherwise empty stretch still shows as one
   * pixel. */
  for (guint bits = touched; bits != 0; bits &= bits - 1)
    {
      guint s = (guint) g_bit_nth_lsf (bits, -1);

      if (b->acc[s] > best_time)
        {
          best = s;
          best_time = b->acc[s];
        }
    }
  if ((touched & (touched - 1)) == 0 && best_time >= b->bucket)
    bucketer_emit (b, b->cur, b->cur + 1, best);
  else
    {
      seg = seg_vec_push (&b->out);
      *seg = (WsStateSegment) { 0 };
      seg->t0 = b->cur * b->bucket;
      seg->t1 = seg->t0 + b->bucket;
      seg->state = best;
      seg->mixed = TRUE;
      for (guint bits = touched; bits != 0; bits &= bits - 1)
        {
          guint s = (guint) g_bit_nth_lsf (bits, -1);
          /* Round up so that a sliver never vanishes. */
          WsTime share = (b->acc[s] * 255 + b->bucket - 1) >> b->shift;

          seg->cover[s] = (guint8) MIN (share, 255);
        }
    }
  for (guint bits = touched; bits != 0; bits &= bits - 1)
    b->acc[g_bit_nth_lsf (bits, -1)] = 0;
  b->touched = 0;
  b->cur = G_MININT64;
}

/* Whether what lies beside @seg across its end @at — its neighbour
 * @other (the segment before or after it, or %NULL) if that touches @at,
 * else a gap — surely makes the bucket holding @at hold two states or
 * time in no state: a gap, or a plain segment of another state.  A mixed
 * finer bucket may turn out all of one state in the coarser one (its
 * shares are rounded up), so it proves nothing. */
static inline gboolean
differs_across (const WsStateSegment *seg,
                const WsStateSegment *other,
                WsTime                at)
{
  if (other == NULL || (other->t0 != at && other->t1 != at))
    return TRUE;
  return !other->mixed && other->state != seg->state;
}

/* At least how many segments the level at 2^@shift ns built from @segs
 * holds, counting past @max at most; cheap (no bucket is filled).
 *
 * Two kinds of output each stand alone and are counted once:
 * - a bucket that a plain segment's end falls strictly inside, with a
 *   gap or a plain segment of another state on the other side, holds
 *   two states or a gap: it becomes a mixed segment of its own (mixed
 *   segments never merge);
 * - the whole buckets inside a plain segment whose neighbours are plain
 *   segments of other states or gaps become one run of its state, which
 *   cannot merge with a neighbour's run: the bucket at each of its ends
 *   is either mixed (above) or starts or ends in another state.
 * Most tries at the finest buckets are not kept (each segment longer than
 * a bucket gives a mixed bucket at each end and a run between), and this
 * proves it in a fraction of the time the bucketer takes to find out. */
static guint
seg_level_lower_bound (const WsStateSegment *segs,
                       guint                 n,
                       guint                 shift,
                       guint                 max)
{
  WsTime mask = (G_GINT64_CONSTANT (1) << shift) - 1;
  WsTime last_mixed = G_MININT64;
  guint count = 0;

  for (guint i = 0; i < n && count <= max; i++)
    {
      const WsStateSegment *seg = &segs[i];
      const WsStateSegment *prev = i > 0 ? &segs[i - 1] : NULL;
      const WsStateSegment *next = i + 1 < n ? &segs[i + 1] : NULL;
      gboolean open_before, open_after;

      if (seg->mixed)
        continue;
      open_before = differs_across (seg, prev, seg->t0);
      open_after = differs_across (seg, next, seg->t1);
      if ((seg->t0 & mask) != 0 && open_before && floor_shift (seg->t0, shift) != last_mixed)
        {
          last_mixed = floor_shift (seg->t0, shift);
          count++;
        }
      if (open_before && open_after
          && floor_shift (seg->t1 - 1, shift) > floor_shift (seg->t0, shift) + 1)
        count++;
      if ((seg->t1 & mask) != 0 && open_after && floor_shift (seg->t1, shift) != last_mixed)
        {
          last_mixed = floor_shift (seg->t1, shift);
          count++;
        }
    }
  return count;
}

/* The level at @bucket built from the finer level @segs, or %NULL as soon
 * as it holds more than @max segments (it would not be kept: most tries
 * at the finest buckets are not, and used to be built whole). */
static WsStateSegment *
build_seg_level (const WsStateSegment *segs,
                 guint                 n,
                 WsTime                bucket,
                 guint                 max,
                 guint                *n_out)
{
  Bucketer b = { 0 };

  b.bucket = bucket;
  b.shift = bucket_shift (bucket);
  b.cur = G_MININT64;

  for (guint i = 0; i < n; i++)
    {
      WsTime a = segs[i].t0, e = segs[i].t1;
      WsTime ia = floor_shift (a, b.shift);
      WsTime ib = floor_shift (e - 1, b.shift);
      guint8 s = segs[i].state;

      if (b.out.n > max)
        break;
      if (ia != b.cur)
        {
          bucketer_flush (&b);
          b.cur = ia;
        }
      if (segs[i].mixed)
        {
          /* A bucket of the finer level lies inside one of ours. */
          for (guint k = 0; k < WS_N_THREAD_STATES; k++)
            bucketer_add (&b, k, segs[i].cover[k] * (e - a) / 255);
          continue;
        }
      if (ia == ib)
        {
          bucketer_add (&b, s, e - a);
          continue;
        }
      bucketer_add (&b, s, (ia + 1) * bucket - a);
      bucketer_flush (&b);
      if (ib > ia + 1)
        bucketer_emit (&b, ia + 1, ib, s);
      b.cur = ib;
      bucketer_add (&b, s, e - ib * bucket);
    }
  bucketer_flush (&b);

  if (b.out.n > max)
    {
      g_free (b.out.segs);
      return NULL;
    }
  *n_out = b.out.n;
  return b.out.segs;
}

/* The marks at @bucket, or %NULL past @max of them (see build_seg_level()). */
static WsLodMark *
build_mark_level (const WsLodMark *marks,
                  guint            n,
                  WsTime           bucket,
                  guint            max,
                  guint           *n_out)
{
  WsLodMark *out = g_new (WsLodMark, MIN (n, max + 1) + 1);
  guint shift = bucket_shift (bucket);
  WsTime last[WS_N_MARK_KINDS];
  guint kept = 0;

  for (guint k = 0; k < WS_N_MARK_KINDS; k++)
    last[k] = G_MININT64;

  /* One mark of each kind per bucket: a pixel column needs no more. */
  for (guint i = 0; i < n && kept <= max; i++)
    {
      WsTime b = floor_shift (marks[i].time, shift);

      if (last[marks[i].kind] == b)
        continue;
      last[marks[i].kind] = b;
      out[kept++] = (WsLodMark) { b * bucket, marks[i].kind };
    }
  if (kept > max)
    {
      g_free (out);
      return NULL;
    }
  *n_out = kept;
  return out;
}

/* A GArray filled in place: g_array_append_vals() is a call and a memcpy
 * per item, and the walk over the events appends two or three items an
 * event (the most of the walk's time, perf on a 2 GB trace).  The array
 * is grown ahead by doubling (its length is its room), @n counts the
 * items written; fill_finish() cuts it to them. */
typedef struct {
  GArray *array;
  guint   n;
} Fill;

static inline gpointer
fill_push (Fill  *f,
           gsize  size,
           guint  count)
{
  if (G_UNLIKELY (f->n + count > f->array->len))
    g_array_set_size (f->array, MAX (f->array->len * 2, f->n + count + 16));
  f->n += count;
  return f->array->data + (f->n - count) * size;
}

static GArray *
fill_finish (Fill *f)
{
  g_array_set_size (f->array, f->n);
  return f->array;
}

/* What level 0 is built from, per thread. */
typedef struct {
  Fill  spans;         /* WsStateSpan, as the events give them */
  Fill  marks;         /* WsLodMark */
  Fill  waits;         /* WsLodWait of at least WS_TIMELINE_LOD_MIN_WAIT */
} Level0;

/* What one wait adds to the long waits and the duration index. */
static void
add_wait (Level0        *l0,
          const WsEvent *e,
          guint          index)
{
  WsThreadState state = ws_thread_state_for_wait (e);
  WsTime end = e->time + MAX (ws_event_duration (e), 0);
  WsTime duration = end - e->time;

  if (duration >= WS_TIMELINE_LOD_MIN_WAIT)
    *(WsLodWait *) fill_push (&l0->waits, sizeof (WsLodWait), 1) = (WsLodWait) { e->time, end, index, state };
}

/* Level 0 of one event: its spans or a mark. */
static void
add_event (Level0        *l0,
           WsTrace       *trace,
           const WsEvent *e,
           guint          index)
{
  WsStateSpan spans[2];
  guint n_spans = ws_state_spans_of_event (trace, e, index, spans);
  WsLodMark mark = { e->time, 0 };

  if (n_spans > 0)
    memcpy (fill_push (&l0->spans, sizeof (WsStateSpan), n_spans), spans, n_spans * sizeof (WsStateSpan));
  switch ((WsEventKind) e->kind)
    {
    case WS_EVENT_RUNNING:
      if (e->flags & WS_EVENT_FLAG_SPAN)
        return;
      mark.kind = WS_MARK_SAMPLE;
      break;
    case WS_EVENT_WAIT:
      add_wait (l0, e, index);
      return;
    case WS_EVENT_UNWAIT:
      if (e->flags & WS_EVENT_FLAG_ECHO)
        return;
      mark.kind = WS_MARK_UNWAIT;
      break;
    case WS_EVENT_MARKER:
      mark.kind = WS_MARK_MARKER;
      break;
    case WS_EVENT_PREEMPT:
    case WS_EVENT_HW_SERVICE:
    case WS_N_EVENT_KINDS:
    default:
      return;
    }
  *(WsLodMark *) fill_push (&l0->marks, sizeof (WsLodMark), 1) = mark;
}

/* The time in each state: the sum of the row's disjoint spans, so that
 * the Threads table, the timeline and the pivot table agree to the
 * nanosecond. */
static void
add_state_totals (ThreadLod    *lod,
                  const GArray *spans)
{
  for (guint i = 0; i < spans->len; i++)
    {
      const WsStateSpan *s = &g_array_index (spans, WsStateSpan, i);
      WsThreadState state = ws_thread_state_to_legend (s->state);

      if (state == WS_THREAD_STATE_RUN)
        lod->stats.run += s->t1 - s->t0;
      else if (state == WS_THREAD_STATE_READY)
        lod->stats.ready += s->t1 - s->t0;
      else
        lod->stats.wait[state - WS_THREAD_STATE_SLEEP] += s->t1 - s->t0;
    }
}

/* A coarser segment level at @bucket, kept only if it drops at least a
 * quarter of the segments; returns the count now kept. */
static guint
add_seg_level (ThreadLod *lod,
               WsTime     bucket,
               guint      kept)
{
  SegLevel *prev = &lod->seg_levels[lod->n_seg_levels - 1];
  guint n = 0;
  WsStateSegment *segs;
  SegLevel *l;

  if (seg_level_lower_bound (prev->segs, prev->n, bucket_shift (bucket), kept * 3 / 4) > kept * 3 / 4)
    return kept;
  segs = build_seg_level (prev->segs, prev->n, bucket, kept * 3 / 4, &n);
  if (segs == NULL)
    return kept;
  l = &lod->seg_levels[lod->n_seg_levels++];
  l->bucket = bucket;
  l->n = n;
  l->segs = segs;
  return l->n;
}

static guint
add_mark_level (ThreadLod *lod,
                WsTime     bucket,
                guint      kept)
{
  MarkLevel *prev = &lod->mark_levels[lod->n_mark_levels - 1];
  guint n = 0;
  WsLodMark *marks = build_mark_level (prev->marks, prev->n, bucket, kept * 3 / 4, &n);
  MarkLevel *l;

  if (marks == NULL)
    return kept;
  l = &lod->mark_levels[lod->n_mark_levels++];
  l->bucket = bucket;
  l->n = n;
  l->marks = marks;
  return l->n;
}

static int
compare_wait_start (gconstpointer a,
                    gconstpointer b)
{
  const WsLodWait *wa = a, *wb = b;

  return wa->t0 < wb->t0 ? -1 : wa->t0 > wb->t0;
}

/* The duration index of one thread: level k holds the waits of at least
 * 4^k ms, so that a zoomed-out frame walks only waits a pixel wide. */
static void
build_wait_levels (ThreadLod *lod,
                   GArray    *waits)
{
  WsTime min = WS_TIMELINE_LOD_MIN_WAIT;

  g_array_sort (waits, compare_wait_start);
  lod->wait_levels[0].min_duration = min;
  lod->wait_levels[0].n = waits->len;
  lod->wait_levels[0].waits = (WsLodWait *) (gpointer) g_array_free (waits, FALSE);
  lod->n_wait_levels = 1;

  while (lod->n_wait_levels < MAX_WAIT_LEVELS)
    {
      const WaitLevel *prev = &lod->wait_levels[lod->n_wait_levels - 1];
      WaitLevel *next = &lod->wait_levels[lod->n_wait_levels];
      guint n = 0;

      min *= LEVEL_FACTOR;
      next->waits = g_new (WsLodWait, MAX (prev->n, 1));
      for (guint i = 0; i < prev->n; i++)
        if (prev->waits[i].t1 - prev->waits[i].t0 >= min)
          next->waits[n++] = prev->waits[i];
      if (n == prev->n || n == 0)
        {
          /* Nothing dropped: the finer level serves this scale too. */
          g_free (next->waits);
          next->waits = NULL;
          if (n == 0)
            break;
          continue;
        }
      next->n = n;
      next->min_duration = min;
      lod->n_wait_levels++;
    }
}

/* A thread's events lie scattered through the trace's array: ask for
 * the line of the event PREFETCH_AHEAD on while this one is handled. */
#define PREFETCH_AHEAD 16

static inline void
prefetch_ahead (const WsEvent  *events,
                const WsThread *t,
                guint           k)
{
  if (k + PREFETCH_AHEAD < t->n_events)
    __builtin_prefetch (&events[t->events[k + PREFETCH_AHEAD]]);
}

/* Builds one thread's levels; touches nothing of @self but that thread's
 * entry, so threads can be built at once.  Returns the bytes it kept. */
static gsize
build_thread (WsTimelineLod *self,
              guint          thread,
              WsTime         span)
{
  gsize memory = 0;
  const WsThread *t = ws_trace_get_thread (self->trace, thread);
  const WsEvent *events = ws_trace_get_events (self->trace);
  ThreadLod *lod = &self->threads[thread];
  Level0 l0 = {
    { g_array_sized_new (FALSE, FALSE, sizeof (WsStateSpan), t->n_events), 0 },
    { g_array_new (FALSE, FALSE, sizeof (WsLodMark)), 0 },
    { g_array_new (FALSE, FALSE, sizeof (WsLodWait)), 0 },
  };
  g_autoptr(GArray) spans = NULL;
  GArray *marks, *segs;
  guint kept_segs, kept_marks;

  for (guint k = 0; k < t->n_events; k++)
    {
      prefetch_ahead (events, t, k);
      add_event (&l0, self->trace, &events[t->events[k]], t->events[k]);
    }
  spans = fill_finish (&l0.spans);
  marks = fill_finish (&l0.marks);
  ws_state_spans_normalize (spans);
  add_state_totals (lod, spans);
  segs = level0_from_spans (spans);
  build_wait_levels (lod, fill_finish (&l0.waits));

  lod->seg_levels[0].bucket = 0;
  lod->seg_levels[0].n = segs->len;
  lod->seg_levels[0].segs = (WsStateSegment *) (gpointer) g_array_free (segs, FALSE);
  lod->n_seg_levels = 1;
  lod->mark_levels[0].bucket = 0;
  lod->mark_levels[0].n = marks->len;
  lod->mark_levels[0].marks = (WsLodMark *) (gpointer) g_array_free (marks, FALSE);
  lod->n_mark_levels = 1;

  kept_segs = lod->seg_levels[0].n;
  kept_marks = lod->mark_levels[0].n;

  /* Buckets up to a 64th of the trace: coarser is never drawn (a view
   * is at least 64 px wide). */
  for (WsTime bucket = WS_TIMELINE_LOD_BASE_BUCKET;
       bucket <= MAX (span / 64, WS_TIMELINE_LOD_BASE_BUCKET) && lod->n_seg_levels < MAX_LEVELS;
       bucket *= LEVEL_FACTOR)
    {
      if (kept_segs > 16)
        kept_segs = add_seg_level (lod, bucket, kept_segs);
      if (kept_marks > 16 && lod->n_mark_levels < MAX_LEVELS)
        kept_marks = add_mark_level (lod, bucket, kept_marks);
    }

  for (guint l = 0; l < lod->n_seg_levels; l++)
    memory += lod->seg_levels[l].n * sizeof (WsStateSegment);
  for (guint l = 0; l < lod->n_mark_levels; l++)
    memory += lod->mark_levels[l].n * sizeof (WsLodMark);
  for (guint l = 0; l < lod->n_wait_levels; l++)
    memory += lod->wait_levels[l].n * sizeof (WsLodWait);
  return memory;
}

/* The threads of a trace built on several cores: each worker takes the
 * next job not yet taken — a thread, the busiest first so that one long
 * thread is not left to the end, or the totals — and a thread's levels
 * depend on its events only, so the result is the same as one after
 * another.
 *
 * The totals (the Threads table's counts) are the core's own
 * ws_trace_thread_totals(), one pass in trace order: counted thread by
 * thread each wait reads the far-away event that ended it, a cache miss,
 * and the walk took a third longer (2 GB trace); as a job of its own the
 * pass runs beside the busiest thread. */
#define TOTALS_JOB G_MAXUINT

typedef struct {
  WsTimelineLod  *self;
  WsTime          span;
  const guint    *jobs;      /* thread indices, most events first, and TOTALS_JOB */
  guint           n_jobs;
  GCancellable   *cancellable;
  gint            next;
  WsThreadTotals *totals;    /* the TOTALS_JOB's result */
} BuildBatch;

typedef struct {
  BuildBatch *batch;
  gsize       memory;
} BuildWorker;

static gpointer
build_threads (gpointer data)
{
  BuildWorker *worker = data;
  BuildBatch *batch = worker->batch;
  guint i;

  while ((i = (guint) g_atomic_int_add (&batch->next, 1)) < batch->n_jobs
         && !g_cancellable_is_cancelled (batch->cancellable))
    {
      if (batch->jobs[i] == TOTALS_JOB)
        batch->totals = ws_trace_thread_totals (batch->self->trace);
      else
        worker->memory += build_thread (batch->self, batch->jobs[i], batch->span);
    }
  return NULL;
}

static int
compare_busier (gconstpointer a,
                gconstpointer b,
                gpointer      user_data)
{
  WsTrace *trace = user_data;
  guint na = ws_trace_get_thread (trace, *(const guint *) a)->n_events;
  guint nb = ws_trace_get_thread (trace, *(const guint *) b)->n_events;
  return na > nb ? -1 : na < nb;
}

/* Threads to build on: one per core, or WAITSCOPE_THREADS. */
static guint
n_build_threads (guint n_trace_threads)
{
  return CLAMP (ws_threads_from_env ("WAITSCOPE_THREADS"), 1, MAX (n_trace_threads, 1));
}

static void
build_all_threads (WsTimelineLod *self,
                   WsTime         span,
                   GCancellable  *cancellable)
{
  g_autofree guint *jobs = g_new (guint, self->n_threads + 1);
  guint n_workers = n_build_threads (self->n_threads);
  g_autofree BuildWorker *workers = g_new0 (BuildWorker, n_workers);
  g_autofree GThread **threads = g_new0 (GThread *, n_workers);
  BuildBatch batch = { self, span, jobs, self->n_threads + 1, cancellable, 0, NULL };

  for (guint t = 0; t < self->n_threads; t++)
    jobs[t] = t;
  g_qsort_with_data (jobs, self->n_threads, sizeof (guint), compare_busier, self->trace);
  /* The totals second: beside the busiest thread. */
  if (self->n_threads > 0)
    {
      jobs[self->n_threads] = jobs[self->n_threads - 1];
      memmove (jobs + 2, jobs + 1, (self->n_threads - 1) * sizeof (guint));
      jobs[1] = TOTALS_JOB;
    }
  else
    jobs[0] = TOTALS_JOB;
  for (guint w = 0; w < n_workers; w++)
    workers[w].batch = &batch;
  for (guint w = 1; w < n_workers; w++)
    threads[w] = g_thread_new ("ws-timeline-lod", build_threads, &workers[w]);
  build_threads (&workers[0]);
  for (guint w = 0; w < n_workers; w++)
    {
      if (w > 0)
        g_thread_join (threads[w]);
      self->memory += workers[w].memory;
    }
  if (batch.totals != NULL)
    for (guint t = 0; t < self->n_threads; t++)
      self->threads[t].stats.totals = batch.totals[t];
  g_free (batch.totals);
}

static int
compare_time (gconstpointer a,
              gconstpointer b)
{
  WsTime ta = *(const WsTime *) a, tb = *(const WsTime *) b;

  return ta < tb ? -1 : ta > tb;
}

/* "Long" is relative to the trace: the longest 1 % of its waits, and
 * never under the duration index's 1 ms.  The percentile is the wait at
 * rank (guint) (0.99 (N - 1)) of all N waits by duration; a rank below
 * the waits of at least 1 ms (the duration index, level 0) is a wait
 * shorter than 1 ms, so the threshold is 1 ms; at or above, it is found
 * among the duration index's waits alone.  So the durations of the short
 * waits, most of them, need not be kept nor sorted: the same threshold
 * at a fraction of the work. */
static void
mark_long_waits (WsTimelineLod *self)
{
  WsTime threshold = WS_TIMELINE_LOD_MIN_WAIT;
  guint64 n_all = 0;
  g_autoptr(GArray) long_durations = g_array_new (FALSE, FALSE, sizeof (WsTime));

  for (guint t = 0; t < self->n_threads; t++)
    {
      const WaitLevel *index = &self->threads[t].wait_levels[0];

      n_all += self->threads[t].stats.totals.n_waits;
      for (guint i = 0; i < index->n; i++)
        {
          WsTime d = index->waits[i].t1 - index->waits[i].t0;
          g_array_append_val (long_durations, d);
        }
    }
  if (n_all > 0)
    {
      guint64 rank = (guint) (LONG_WAIT_QUANTILE * (n_all - 1));
      guint64 first_long = n_all - long_durations->len;

      if (rank >= first_long)
        {
          g_array_sort (long_durations, compare_time);
          threshold = MAX (threshold, g_array_index (long_durations, WsTime, rank - first_long));
        }
    }
  self->long_threshold = threshold;

  for (guint t = 0; t < self->n_threads; t++)
    {
      ThreadLod *lod = &self->threads[t];
      const WaitLevel *all = &lod->wait_levels[0];

      lod->long_waits = g_new (WsLodWait, MAX (all->n, 1));
      for (guint i = 0; i < all->n; i++)
        if (all->waits[i].t1 - all->waits[i].t0 >= threshold)
          lod->long_waits[lod->n_long_waits++] = all->waits[i];
      self->memory += lod->n_long_waits * sizeof (WsLodWait);
    }
}

static int
compare_instance_start (gconstpointer a,
                        gconstpointer b,
                        gpointer      user_data)
{
  WsTrace *trace = user_data;
  WsTime ta = ws_trace_get_scenario_instance (trace, *(const guint32 *) a)->t0;
  WsTime tb = ws_trace_get_scenario_instance (trace, *(const guint32 *) b)->t0;

  return ta < tb ? -1 : ta > tb;
}

/* Each thread's scenario instances, by start, for the slices drawn on
 * its row. */
static void
index_instances (WsTimelineLod *self)
{
  guint n = ws_trace_get_n_scenario_instances (self->trace);

  for (guint i = 0; i < n; i++)
    {
      const WsScenarioInstance *si = ws_trace_get_scenario_instance (self->trace, i);
      if (si->thread < self->n_threads)
        self->threads[si->thread].n_instances++;
      self->slowest_instance = MAX (self->slowest_instance, si->t1 - si->t0);
    }
  for (guint t = 0; t < self->n_threads; t++)
    {
      self->threads[t].instances = self->threads[t].n_instances ? g_new (guint32, self->threads[t].n_instances) : NULL;
      self->threads[t].n_instances = 0;
    }
  for (guint i = 0; i < n; i++)
    {
      guint thread = ws_trace_get_scenario_instance (self->trace, i)->thread;
      if (thread < self->n_threads)
        self->threads[thread].instances[self->threads[thread].n_instances++] = i;
    }
  for (guint t = 0; t < self->n_threads; t++)
    if (self->threads[t].n_instances > 1)
      g_qsort_with_data (self->threads[t].instances, self->threads[t].n_instances, sizeof (guint32),
                         compare_instance_start, self->trace);
}

/**
 * ws_timeline_lod_new:
 * @cancellable: (nullable): polled between threads
 *
 * Builds the levels of every thread of a finished trace.  Takes about
 * 0.1 s of CPU a million events (docs/performance.md), on every core:
 * call it from a worker thread.
 *
 * Returns: (transfer full): the levels, or %NULL if cancelled
 */
WsTimelineLod *
ws_timeline_lod_new (WsTrace       *trace,
                     GCancellable  *cancellable,
                     GError       **error)
{
  g_autoptr(WsTimelineLod) self = NULL;
  WsTime span;

  g_return_val_if_fail (WS_IS_TRACE (trace), NULL);

  self = g_object_new (WS_TYPE_TIMELINE_LOD, NULL);
  self->trace = g_object_ref (trace);
  self->n_threads = ws_trace_get_n_threads (trace);
  self->threads = g_new0 (ThreadLod, MAX (self->n_threads, 1));
  span = ws_trace_get_end_time (trace) - ws_trace_get_start_time (trace);

  build_all_threads (self, span, cancellable);
  if (g_cancellable_is_cancelled (cancellable))
    {
      g_set_error_literal (error, WS_ERROR, WS_ERROR_CANCELLED, _("Cancelled"));
      return NULL;
    }
  mark_long_waits (self);
  index_instances (self);
  self->memory += self->n_threads * sizeof (ThreadLod);

  return g_steal_pointer (&self);
}

WsTrace *
ws_timeline_lod_get_trace (WsTimelineLod *self)
{
  g_return_val_if_fail (WS_IS_TIMELINE_LOD (self), NULL);
  return self->trace;
}

/* A binary search over the @n items of an array (@stride bytes each)
 * sorted by the time @offset bytes into each item: the first from @lo
 * whose time is past @time, or (@at_or_past) at or past it; @n if none. */
static guint
first_past (gconstpointer items,
            gsize         stride,
            gsize         offset,
            guint         lo,
            guint         n,
            WsTime        time,
            gboolean      at_or_past)
{
  guint hi = n;

  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;
      WsTime t = *(const WsTime *) ((const guint8 *) items + mid * stride + offset);

      if (at_or_past ? t < time : t <= time)
        lo = mid + 1;
      else
        hi = mid;
    }
  return lo;
}

/**
 * ws_timeline_lod_get_segments:
 * @ns_per_px: the scale of the view
 * @t0: the first instant shown
 * @t1: the end of the view
 * @n_segments: (out): how many segments the slice holds
 *
 * Returns: (transfer none) (array length=n_segments): the segments of the
 *   coarsest level whose buckets are at most one pixel wide that overlap
 *   [@t0, @t1), in time order
 */
const WsStateSegment *
ws_timeline_lod_get_segments (WsTimelineLod *self,
                              guint          thread,
                              double         ns_per_px,
                              WsTime         t0,
                              WsTime         t1,
                              guint         *n_segments)
{
  const ThreadLod *lod;
  const SegLevel *level;
  guint first, last, l;

  g_return_val_if_fail (WS_IS_TIMELINE_LOD (self), NULL);
  g_return_val_if_fail (thread < self->n_threads, NULL);
  g_return_val_if_fail (n_segments != NULL, NULL);

  lod = &self->threads[thread];
  for (l = lod->n_seg_levels - 1; l > 0; l--)
    if ((double) lod->seg_levels[l].bucket <= ns_per_px)
      break;
  level = &lod->seg_levels[l];

  /* From the first segment that ends after @t0 to the first that starts
   * at or after @t1. */
  first = first_past (level->segs, sizeof (WsStateSegment), G_STRUCT_OFFSET (WsStateSegment, t1),
                      0, level->n, t0, FALSE);
  last = first_past (level->segs, sizeof (WsStateSegment), G_STRUCT_OFFSET (WsStateSegment, t0),
                     first, level->n, t1, TRUE);
  *n_segments = last - first;
  return level->segs + first;
}

/**
 * ws_timeline_lod_get_marks:
 * @n_marks: (out):
 *
 * Returns: (transfer none) (array length=n_marks): the marks in [@t0, @t1)
 *   of the coarsest level with buckets at most one pixel wide
 */
const WsLodMark *
ws_timeline_lod_get_marks (WsTimelineLod *self,
                           guint          thread,
                           double         ns_per_px,
                           WsTime         t0,
                           WsTime         t1,
                           guint         *n_marks)
{
  const ThreadLod *lod;
  const MarkLevel *level;
  guint first, last, l;

  g_return_val_if_fail (WS_IS_TIMELINE_LOD (self), NULL);
  g_return_val_if_fail (thread < self->n_threads, NULL);
  g_return_val_if_fail (n_marks != NULL, NULL);

  lod = &self->threads[thread];
  for (l = lod->n_mark_levels - 1; l > 0; l--)
    if ((double) lod->mark_levels[l].bucket <= ns_per_px)
      break;
  level = &lod->mark_levels[l];

  first = first_past (level->marks, sizeof (WsLodMark), G_STRUCT_OFFSET (WsLodMark, time),
                      0, level->n, t0, TRUE);
  last = first_past (level->marks, sizeof (WsLodMark), G_STRUCT_OFFSET (WsLodMark, time),
                     first, level->n, t1, TRUE);
  *n_marks = last - first;
  return level->marks + first;
}

guint
ws_timeline_lod_get_n_levels (WsTimelineLod *self,
                              guint          thread)
{
  g_return_val_if_fail (WS_IS_TIMELINE_LOD (self), 0);
  g_return_val_if_fail (thread < self->n_threads, 0);
  return self->threads[thread].n_seg_levels;
}

/**
 * ws_timeline_lod_get_level:
 * @bucket: (out) (optional): the level's bucket in ns, 0 for the exact level
 * @n_segments: (out):
 *
 * Returns: (transfer none) (array length=n_segments): all segments of one
 *   kept level (for tests and exporters)
 */
const WsStateSegment *
ws_timeline_lod_get_level (WsTimelineLod *self,
                           guint          thread,
                           guint          level,
                           WsTime        *bucket,
                           guint         *n_segments)
{
  const ThreadLod *lod;

  g_return_val_if_fail (WS_IS_TIMELINE_LOD (self), NULL);
  g_return_val_if_fail (thread < self->n_threads, NULL);
  g_return_val_if_fail (n_segments != NULL, NULL);

  lod = &self->threads[thread];
  g_return_val_if_fail (level < lod->n_seg_levels, NULL);
  if (bucket)
    *bucket = lod->seg_levels[level].bucket;
  *n_segments = lod->seg_levels[level].n;
  return lod->seg_levels[level].segs;
}

const WsThreadStats *
ws_timeline_lod_get_stats (WsTimelineLod *self,
                           guint          thread)
{
  g_return_val_if_fail (WS_IS_TIMELINE_LOD (self), NULL);
  g_return_val_if_fail (thread < self->n_threads, NULL);
  return &self->threads[thread].stats;
}

gsize
ws_timeline_lod_get_memory_size (WsTimelineLod *self)
{
  g_return_val_if_fail (WS_IS_TIMELINE_LOD (self), 0);
  return self->memory;
}

/* The waits overlapping [@t0, @t1): from the first that ends after @t0. */
static const WsLodWait *
waits_slice (const WsLodWait *waits,
             guint            n,
             WsTime           t0,
             WsTime           t1,
             guint           *n_waits)
{
  guint first = first_past (waits, sizeof (WsLodWait), G_STRUCT_OFFSET (WsLodWait, t1), 0, n, t0, FALSE);
  guint last = first;

  /* Waits of one thread do not overlap: the starts are sorted too. */
  while (last < n && waits[last].t0 < t1)
    last++;
  *n_waits = last - first;
  return waits + first;
}

/**
 * ws_timeline_lod_get_waits:
 * @ns_per_px: the scale of the view
 * @n_waits: (out):
 *
 * The duration index: waits of at least %WS_TIMELINE_LOD_MIN_WAIT
 * overlapping [@t0, @t1), from the coarsest level whose waits are still
 * at least about a pixel wide, so a frame touches O(pixels) of them.
 *
 * Returns: (transfer none) (array length=n_waits): the waits, by start
 */
const WsLodWait *
ws_timeline_lod_get_waits (WsTimelineLod *self,
                           guint          thread,
                           double         ns_per_px,
                           WsTime         t0,
                           WsTime         t1,
                           guint         *n_waits)
{
  const ThreadLod *lod;
  guint l;

  g_return_val_if_fail (WS_IS_TIMELINE_LOD (self), NULL);
  g_return_val_if_fail (thread < self->n_threads, NULL);
  g_return_val_if_fail (n_waits != NULL, NULL);

  lod = &self->threads[thread];
  for (l = lod->n_wait_levels - 1; l > 0; l--)
    if ((double) lod->wait_levels[l].min_duration <= ns_per_px)
      break;
  return waits_slice (lod->wait_levels[l].waits, lod->wait_levels[l].n, t0, t1, n_waits);
}

/**
 * ws_timeline_lod_get_long_waits:
 * @n_waits: (out):
 *
 * Returns: (transfer none) (array length=n_waits): the thread's long waits
 *   (see ws_timeline_lod_get_long_wait_threshold()) overlapping
 *   [@t0, @t1), at every zoom
 */
const WsLodWait *
ws_timeline_lod_get_long_waits (WsTimelineLod *self,
                                guint          thread,
                                WsTime         t0,
                                WsTime         t1,
                                guint         *n_waits)
{
  const ThreadLod *lod;

  g_return_val_if_fail (WS_IS_TIMELINE_LOD (self), NULL);
  g_return_val_if_fail (thread < self->n_threads, NULL);
  g_return_val_if_fail (n_waits != NULL, NULL);

  lod = &self->threads[thread];
  return waits_slice (lod->long_waits, lod->n_long_waits, t0, t1, n_waits);
}

/**
 * ws_timeline_lod_get_long_wait_threshold:
 *
 * Returns: the duration from which a wait counts as long: the 99th
 *   percentile of the trace's waits, at least %WS_TIMELINE_LOD_MIN_WAIT
 */
WsTime
ws_timeline_lod_get_long_wait_threshold (WsTimelineLod *self)
{
  g_return_val_if_fail (WS_IS_TIMELINE_LOD (self), 0);
  return self->long_threshold;
}

static int
compare_wait_duration_desc (gconstpointer a,
                            gconstpointer b)
{
  const WsLodWait *wa = a, *wb = b;
  WsTime da = wa->t1 - wa->t0, db = wb->t1 - wb->t0;

  if (da != db)
    return da > db ? -1 : 1;
  return wa->event < wb->event ? -1 : wa->event > wb->event;
}

/**
 * ws_timeline_lod_dup_longest_waits:
 * @max: how many at most
 *
 * Returns: (transfer full) (element-type WsLodWait): the @max longest
 *   waits of the trace of at least %WS_TIMELINE_LOD_MIN_WAIT, longest first
 */
GArray *
ws_timeline_lod_dup_longest_waits (WsTimelineLod *self,
                                   guint          max)
{
  GArray *out;

  g_return_val_if_fail (WS_IS_TIMELINE_LOD (self), NULL);

  out = g_array_new (FALSE, FALSE, sizeof (WsLodWait));
  for (guint t = 0; t < self->n_threads; t++)
    g_array_append_vals (out, self->threads[t].wait_levels[0].waits, self->threads[t].wait_levels[0].n);
  g_array_sort (out, compare_wait_duration_desc);
  if (out->len > max)
    g_array_set_size (out, max);
  return out;
}

/**
 * ws_timeline_lod_get_thread_instances:
 * @n_instances: (out):
 *
 * Returns: (transfer none) (array length=n_instances): the indices of the
 *   scenario instances of @thread, by start time
 */
const guint32 *
ws_timeline_lod_get_thread_instances (WsTimelineLod *self,
                                      guint          thread,
                                      guint         *n_instances)
{
  g_return_val_if_fail (WS_IS_TIMELINE_LOD (self), NULL);
  g_return_val_if_fail (thread < self->n_threads, NULL);
  g_return_val_if_fail (n_instances != NULL, NULL);

  *n_instances = self->threads[thread].n_instances;
  return self->threads[thread].instances;
}

/**
 * ws_timeline_lod_get_slowest_instance:
 *
 * Returns: the duration of the trace's longest scenario instance, 0
 *   without any
 */
WsTime
ws_timeline_lod_get_slowest_instance (WsTimelineLod *self)
{
  g_return_val_if_fail (WS_IS_TIMELINE_LOD (self), 0);
  return self->slowest_instance;
}

WsStateSegment *
ws_timeline_lod_build_level (const WsStateSegment *segs,
                             guint                 n,
                             WsTime                bucket,
                             guint                 max,
                             guint                *n_out)
{
  return build_seg_level (segs, n, bucket, max, n_out);
}

guint
ws_timeline_lod_level_lower_bound (const WsStateSegment *segs,
                                   guint                 n,
                                   WsTime                bucket,
                                   guint                 max)
{
  return seg_level_lower_bound (segs, n, bucket_shift (bucket), max);
}
