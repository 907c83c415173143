/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The timeline's levels of detail built the plain way, as
 * ws-timeline-lod.c built them before it was made fast (2026-11-29):
 * level 0 from the core's own ws_thread_state_spans(), every coarser
 * level built whole with 64-bit divisions and then kept or dropped, the
 * totals from the core's ws_trace_thread_totals() (one pass in trace
 * order), the long-wait threshold as the percentile of every wait's
 * duration, sorted.  ws_timeline_lod_assert_as_reference() checks a
 * WsTimelineLod against it field by field, so that a faster build that
 * changes one bit of one level fails.
 */
#include "config.h"

#include "ws-timeline-lod-reference.h"
#include <string.h>

#include "ws-thread-state.h"
#include "ws-trace-stats.h"

#define REF_LEVEL_FACTOR     4
#define REF_MAX_LEVELS       24
#define REF_MAX_WAIT_LEVELS  12
#define REF_LONG_QUANTILE    0.99

static WsTime
ref_floor_div (WsTime a,
               WsTime b)
{
  WsTime q = a / b;
  return (a % b != 0 && (a < 0) != (b < 0)) ? q - 1 : q;
}

static void
ref_append (GArray *out,
            WsTime  t0,
            WsTime  t1,
            guint8  state)
{
  WsStateSegment seg = { 0 };

  seg.t0 = t0;
  seg.t1 = t1;
  seg.state = state;
  if (t1 > t0)
    g_array_append_val (out, seg);
}

typedef struct {
  GArray *out;
  WsTime  bucket;
  WsTime  cur;
  WsTime  acc[WS_N_THREAD_STATES];
} RefBucketer;

static void
ref_emit (RefBucketer *b,
          WsTime       first,
          WsTime       last_exclusive,
          guint8       state)
{
  WsTime t0 = first * b->bucket, t1 = last_exclusive * b->bucket;

  if (b->out->len > 0)
    {
      WsStateSegment *prev = &g_array_index (b->out, WsStateSegment, b->out->len - 1);
      if (!prev->mixed && prev->state == state && prev->t1 == t0)
        {
          prev->t1 = t1;
          return;
        }
    }
  ref_append (b->out, t0, t1, state);
}

static void
ref_flush (RefBucketer *b)
{
  guint best = WS_N_THREAD_STATES, n_states = 0;
  WsTime best_time = 0, total = 0;

  if (b->cur == G_MININT64)
    return;
  for (guint s = 0; s < WS_N_THREAD_STATES; s++)
    {
      if (b->acc[s] > best_time)
        {
          best = s;
          best_time = b->acc[s];
        }
      if (b->acc[s] > 0)
        n_states++;
      total += b->acc[s];
    }
  if (best < WS_N_THREAD_STATES && n_states == 1 && total >= b->bucket)
    ref_emit (b, b->cur, b->cur + 1, best);
  else if (best < WS_N_THREAD_STATES)
    {
      WsStateSegment seg = { 0 };

      seg.t0 = b->cur * b->bucket;
      seg.t1 = seg.t0 + b->bucket;
      seg.state = best;
      seg.mixed = TRUE;
      for (guint s = 0; s < WS_N_THREAD_STATES; s++)
        seg.cover[s] = (guint8) MIN ((b->acc[s] * 255 + b->bucket - 1) / b->bucket, 255);
      g_array_append_val (b->out, seg);
    }
  memset (b->acc, 0, sizeof b->acc);
  b->cur = G_MININT64;
}

static GArray *
ref_seg_level (const WsStateSegment *segs,
               guint                 n,
               WsTime                bucket)
{
  RefBucketer b = { g_array_new (FALSE, FALSE, sizeof (WsStateSegment)), bucket, G_MININT64, { 0 } };

  for (guint i = 0; i < n; i++)
    {
      WsTime a = segs[i].t0, e = segs[i].t1;
      WsTime ia = ref_floor_div (a, bucket), ib = ref_floor_div (e - 1, bucket);
      guint8 s = segs[i].state;

      if (ia != b.cur)
        {
          ref_flush (&b);
          b.cur = ia;
        }
      if (segs[i].mixed)
        {
          for (guint k = 0; k < WS_N_THREAD_STATES; k++)
            b.acc[k] += segs[i].cover[k] * (e - a) / 255;
          continue;
        }
      if (ia == ib)
        {
          b.acc[s] += e - a;
          continue;
        }
      b.acc[s] += (ia + 1) * bucket - a;
      ref_flush (&b);
      if (ib > ia + 1)
        ref_emit (&b, ia + 1, ib, s);
      b.cur = ib;
      b.acc[s] += e - ib * bucket;
    }
  ref_flush (&b);
  return b.out;
}

static GArray *
ref_mark_level (const WsLodMark *marks,
                guint            n,
                WsTime           bucket)
{
  GArray *out = g_array_new (FALSE, FALSE, sizeof (WsLodMark));
  WsTime last[WS_N_MARK_KINDS] = { G_MININT64, G_MININT64, G_MININT64 };

  for (guint i = 0; i < n; i++)
    {
      WsTime b = ref_floor_div (marks[i].time, bucket);
      WsLodMark m = { b * bucket, marks[i].kind };

      if (last[marks[i].kind] == b)
        continue;
      last[marks[i].kind] = b;
      g_array_append_val (out, m);
    }
  return out;
}

/* Level 0: the core's spans of the row, touching spans of one state
 * merged. */
static GArray *
ref_level0 (WsTrace *trace,
            guint    thread)
{
  g_autoptr(GArray) spans = ws_thread_state_spans (trace, thread);
  GArray *out = g_array_new (FALSE, FALSE, sizeof (WsStateSegment));

  for (guint i = 0; i < spans->len; i++)
    {
      const WsStateSpan *s = &g_array_index (spans, WsStateSpan, i);
      WsStateSegment *last = out->len ? &g_array_index (out, WsStateSegment, out->len - 1) : NULL;

      if (last != NULL && last->t1 == s->t0 && last->state == s->state)
        last->t1 = s->t1;
      else
        ref_append (out, s->t0, s->t1, s->state);
    }
  return out;
}

static GArray *
ref_marks0 (WsTrace *trace,
            guint    thread)
{
  const WsThread *t = ws_trace_get_thread (trace, thread);
  GArray *out = g_array_new (FALSE, FALSE, sizeof (WsLodMark));

  for (guint k = 0; k < t->n_events; k++)
    {
      const WsEvent *e = ws_trace_get_event (trace, t->events[k]);
      WsLodMark m = { e->time, 0 };

      if (e->kind == WS_EVENT_RUNNING && !(e->flags & WS_EVENT_FLAG_SPAN))
        m.kind = WS_MARK_SAMPLE;
      else if (e->kind == WS_EVENT_UNWAIT && !(e->flags & WS_EVENT_FLAG_ECHO))
        m.kind = WS_MARK_UNWAIT;
      else if (e->kind == WS_EVENT_MARKER)
        m.kind = WS_MARK_MARKER;
      else
        continue;
      g_array_append_val (out, m);
    }
  return out;
}

static void
assert_segments_equal (const WsStateSegment *a,
                       guint                 na,
                       const WsStateSegment *b,
                       guint                 nb)
{
  g_assert_cmpuint (na, ==, nb);
  for (guint i = 0; i < na; i++)
    {
      g_assert_cmpint (a[i].t0, ==, b[i].t0);
      g_assert_cmpint (a[i].t1, ==, b[i].t1);
      g_assert_cmpuint (a[i].state, ==, b[i].state);
      g_assert_cmpuint (a[i].mixed, ==, b[i].mixed);
      g_assert_cmpmem (a[i].cover, sizeof a[i].cover, b[i].cover, sizeof b[i].cover);
    }
}

static void
assert_marks_equal (const WsLodMark *a,
                    guint            na,
                    const WsLodMark *b,
                    guint            nb)
{
  g_assert_cmpuint (na, ==, nb);
  for (guint i = 0; i < na; i++)
    {
      g_assert_cmpint (a[i].time, ==, b[i].time);
      g_assert_cmpuint (a[i].kind, ==, b[i].kind);
    }
}

/* Every segment level and mark level of @thread, as the old build loop
 * made and kept them. */
static void
assert_levels (WsTimelineLod *lod,
               WsTrace       *trace,
               guint          thread)
{
  WsTime span = ws_trace_get_end_time (trace) - ws_trace_get_start_time (trace);
  /* A coarse mark stands at its bucket's start, which may be before the
   * trace's: ask from the start of time. */
  WsTime t0 = G_MININT64, t1 = ws_trace_get_end_time (trace) + 1;
  GPtrArray *seg_levels = g_ptr_array_new_with_free_func ((GDestroyNotify) g_array_unref);
  GPtrArray *mark_levels = g_ptr_array_new_with_free_func ((GDestroyNotify) g_array_unref);
  g_autoptr(GArray) seg_buckets = g_array_new (FALSE, FALSE, sizeof (WsTime));
  g_autoptr(GArray) mark_buckets = g_array_new (FALSE, FALSE, sizeof (WsTime));
  guint kept_segs, kept_marks;
  WsTime zero = 0;

  g_ptr_array_add (seg_levels, ref_level0 (trace, thread));
  g_ptr_array_add (mark_levels, ref_marks0 (trace, thread));
  g_array_append_val (seg_buckets, zero);
  g_array_append_val (mark_buckets, zero);
  kept_segs = ((GArray *) seg_levels->pdata[0])->len;
  kept_marks = ((GArray *) mark_levels->pdata[0])->len;
  for (WsTime bucket = WS_TIMELINE_LOD_BASE_BUCKET;
       bucket <= MAX (span / 64, WS_TIMELINE_LOD_BASE_BUCKET) && seg_levels->len < REF_MAX_LEVELS;
       bucket *= REF_LEVEL_FACTOR)
    {
      if (kept_segs > 16)
        {
          GArray *prev = seg_levels->pdata[seg_levels->len - 1];
          GArray *level = ref_seg_level ((const WsStateSegment *) (gpointer) prev->data, prev->len, bucket);

          if (level->len * 4 > kept_segs * 3)
            g_array_unref (level);
          else
            {
              kept_segs = level->len;
              g_ptr_array_add (seg_levels, level);
              g_array_append_val (seg_buckets, bucket);
            }
        }
      if (kept_marks > 16 && mark_levels->len < REF_MAX_LEVELS)
        {
          GArray *prev = mark_levels->pdata[mark_levels->len - 1];
          GArray *level = ref_mark_level ((const WsLodMark *) (gpointer) prev->data, prev->len, bucket);

          if (level->len * 4 > kept_marks * 3)
            g_array_unref (level);
          else
            {
              kept_marks = level->len;
              g_ptr_array_add (mark_levels, level);
              g_array_append_val (mark_buckets, bucket);
            }
        }
    }

  g_assert_cmpuint (ws_timeline_lod_get_n_levels (lod, thread), ==, seg_levels->len);
  for (guint l = 0; l < seg_levels->len; l++)
    {
      GArray *ref = seg_levels->pdata[l];
      WsTime bucket;
      guint n;
      const WsStateSegment *segs = ws_timeline_lod_get_level (lod, thread, l, &bucket, &n);

      g_assert_cmpint (bucket, ==, g_array_index (seg_buckets, WsTime, l));
      assert_segments_equal (segs, n, (const WsStateSegment *) (gpointer) ref->data, ref->len);
    }
  /* The marks are reached by scale: at each level's own bucket (level 0
   * below the first), the level asked for is that one, whole. */
  for (guint l = 0; l < mark_levels->len; l++)
    {
      GArray *ref = mark_levels->pdata[l];
      double ns_per_px = l == 0 ? WS_TIMELINE_LOD_BASE_BUCKET / 2.0 : g_array_index (mark_buckets, WsTime, l);
      guint n;
      const WsLodMark *marks = ws_timeline_lod_get_marks (lod, thread, ns_per_px, t0, t1, &n);

      assert_marks_equal (marks, n, (const WsLodMark *) (gpointer) ref->data, ref->len);
    }
  g_ptr_array_unref (seg_levels);
  g_ptr_array_unref (mark_levels);
}

/* The duration index: the waits of at least 4^k ms, level k kept when it
 * drops some and keeps some; asked for at each level's own duration. */
static void
assert_waits (WsTimelineLod *lod,
              WsTrace       *trace,
              guint          thread,
              GArray        *all_durations)
{
  const WsThread *t = ws_trace_get_thread (trace, thread);
  WsTime t0 = ws_trace_get_start_time (trace), t1 = ws_trace_get_end_time (trace) + 1;
  g_autoptr(GArray) index = g_array_new (FALSE, FALSE, sizeof (WsLodWait));
  WsTime min = WS_TIMELINE_LOD_MIN_WAIT;
  guint prev_n = 0;

  for (guint k = 0; k < t->n_events; k++)
    {
      const WsEvent *e = ws_trace_get_event (trace, t->events[k]);
      WsTime duration = MAX (ws_event_duration (e), 0);
      WsLodWait w = { e->time, e->time + duration, t->events[k], ws_thread_state_for_wait (e) };

      if (e->kind != WS_EVENT_WAIT)
        continue;
      g_array_append_val (all_durations, duration);
      if (duration >= WS_TIMELINE_LOD_MIN_WAIT)
        g_array_append_val (index, w);
    }
  /* Events of a thread are by time, so the index is by start already. */
  for (guint levels = 0; levels < REF_MAX_WAIT_LEVELS; min *= REF_LEVEL_FACTOR)
    {
      g_autoptr(GArray) level = g_array_new (FALSE, FALSE, sizeof (WsLodWait));
      const WsLodWait *got;
      guint n;

      for (guint i = 0; i < index->len; i++)
        if (g_array_index (index, WsLodWait, i).t1 - g_array_index (index, WsLodWait, i).t0 >= min)
          g_array_append_val (level, g_array_index (index, WsLodWait, i));
      if (levels > 0 && level->len == 0)
        break;
      if (levels > 0 && level->len == prev_n)
        continue;
      levels++;
      prev_n = level->len;
      got = ws_timeline_lod_get_waits (lod, thread, (double) min, t0, t1, &n);
      g_assert_cmpuint (n, ==, level->len);
      for (guint i = 0; i < n; i++)
        {
          const WsLodWait *w = &g_array_index (level, WsLodWait, i);
          g_assert_cmpint (got[i].t0, ==, w->t0);
          g_assert_cmpint (got[i].t1, ==, w->t1);
          g_assert_cmpuint (got[i].event, ==, w->event);
          g_assert_cmpuint (got[i].state, ==, w->state);
        }
    }
}

static int
ref_compare_time (gconstpointer a,
                  gconstpointer b)
{
  WsTime ta = *(const WsTime *) a, tb = *(const WsTime *) b;
  return ta < tb ? -1 : ta > tb;
}

void
ws_timeline_lod_assert_as_reference (WsTimelineLod *lod,
                                     WsTrace       *trace)
{
  guint n_threads = ws_trace_get_n_threads (trace);
  g_autofree WsThreadTotals *totals = ws_trace_thread_totals (trace);
  g_autoptr(GArray) durations = g_array_new (FALSE, FALSE, sizeof (WsTime));
  WsTime threshold = WS_TIMELINE_LOD_MIN_WAIT;
  WsTime t0 = ws_trace_get_start_time (trace), t1 = ws_trace_get_end_time (trace) + 1;

  for (guint t = 0; t < n_threads; t++)
    {
      const WsThreadStats *stats = ws_timeline_lod_get_stats (lod, t);
      g_autoptr(GArray) spans = ws_thread_state_spans (trace, t);
      WsTime run = 0, ready = 0, wait[3] = { 0 };

      assert_levels (lod, trace, t);
      assert_waits (lod, trace, t, durations);

      g_assert_cmpint (stats->totals.wait_total, ==, totals[t].wait_total);
      g_assert_cmpint (stats->totals.run_total, ==, totals[t].run_total);
      g_assert_cmpint (stats->totals.sampled_total, ==, totals[t].sampled_total);
      g_assert_cmpint (stats->totals.preempt_total, ==, totals[t].preempt_total);
      g_assert_cmpuint (stats->totals.n_waits, ==, totals[t].n_waits);
      g_assert_cmpuint (stats->totals.n_unknown, ==, totals[t].n_unknown);
      g_assert_cmpuint (stats->totals.n_hardware, ==, totals[t].n_hardware);
      g_assert_cmpuint (stats->totals.n_samples, ==, totals[t].n_samples);
      g_assert_cmpint (stats->totals.longest_wait, ==, totals[t].longest_wait);
      g_assert_cmpuint (stats->totals.longest_wait_event, ==, totals[t].longest_wait_event);
      for (guint i = 0; i < spans->len; i++)
        {
          const WsStateSpan *s = &g_array_index (spans, WsStateSpan, i);
          WsThreadState state = ws_thread_state_to_legend (s->state);

          if (state == WS_THREAD_STATE_RUN)
            run += s->t1 - s->t0;
          else if (state == WS_THREAD_STATE_READY)
            ready += s->t1 - s->t0;
          else
            wait[state - WS_THREAD_STATE_SLEEP] += s->t1 - s->t0;
        }
      g_assert_cmpint (stats->run, ==, run);
      g_assert_cmpint (stats->ready, ==, ready);
      g_assert_cmpmem (stats->wait, sizeof stats->wait, wait, sizeof wait);
    }

  /* The long waits: the 99th percentile of every wait, at least 1 ms. */
  if (durations->len > 0)
    {
      g_array_sort (durations, ref_compare_time);
      threshold = MAX (threshold, g_array_index (durations, WsTime,
                                                 (guint) (REF_LONG_QUANTILE * (durations->len - 1))));
    }
  g_assert_cmpint (ws_timeline_lod_get_long_wait_threshold (lod), ==, threshold);
  for (guint t = 0; t < n_threads; t++)
    {
      guint n_index, n_long, expected = 0;
      const WsLodWait *index = ws_timeline_lod_get_waits (lod, t, 1, t0, t1, &n_index);
      const WsLodWait *longw = ws_timeline_lod_get_long_waits (lod, t, t0, t1, &n_long);

      for (guint i = 0; i < n_index; i++)
        if (index[i].t1 - index[i].t0 >= threshold)
          {
            g_assert_cmpuint (expected, <, n_long);
            g_assert_cmpuint (longw[expected].event, ==, index[i].event);
            expected++;
          }
      g_assert_cmpuint (n_long, ==, expected);
    }
}
