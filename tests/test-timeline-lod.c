/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Levels of detail.  Level 0 is checked against the
 * hand-built trace segment by segment; the coarse levels of a synthetic
 * trace against a brute-force recomputation of every bucket.
 */
#include "config.h"

#include <string.h>

#include "ws-error.h"
#include "ws-synthetic-trace.h"
#include "ws-test-timeline-trace.h"
#include "ws-timeline-lod.h"
#include "ws-timeline-lod-private.h"
#include "ws-timeline-lod-reference.h"
#include "ws-trace-loader.h"

static void
test_level0_exact (void)
{
  WsTestTimelineTrace ids;
  g_autoptr(WsTrace) trace = ws_test_timeline_trace_new (&ids);
  g_autoptr(WsTimelineLod) lod = ws_timeline_lod_new (trace, NULL, NULL);
  static const WsStateSegment expected[] = {
    { 1000, 1600, WS_THREAD_STATE_RUN },
    { 1600, 2600, WS_THREAD_STATE_SLEEP },
    { 2600, 2700, WS_THREAD_STATE_READY },
    { 2700, 3000, WS_THREAD_STATE_RUN },
    { 3000, 3050, WS_THREAD_STATE_READY },
    { 3050, 3200, WS_THREAD_STATE_RUN },
    { 3200, 5000, WS_THREAD_STATE_DISK_UNKNOWN },
  };
  const WsStateSegment *segs;
  const WsThreadStats *stats;
  const WsLodMark *marks;
  WsTime bucket;
  guint n;

  g_assert_cmpuint (ws_timeline_lod_get_n_levels (lod, ids.thread_a), ==, 1);
  segs = ws_timeline_lod_get_level (lod, ids.thread_a, 0, &bucket, &n);
  g_assert_cmpint (bucket, ==, 0);
  g_assert_cmpuint (n, ==, G_N_ELEMENTS (expected));
  for (guint i = 0; i < n; i++)
    {
      g_assert_cmpint (segs[i].t0, ==, expected[i].t0);
      g_assert_cmpint (segs[i].t1, ==, expected[i].t1);
      g_assert_cmpuint (segs[i].state, ==, expected[i].state);
    }

  /* The slice for a window: every segment overlapping [2650, 3025). */
  segs = ws_timeline_lod_get_segments (lod, ids.thread_a, 1.0, 2650, 3025, &n);
  g_assert_cmpuint (n, ==, 3);
  g_assert_cmpint (segs[0].t0, ==, 2600);
  g_assert_cmpint (segs[2].t0, ==, 3000);
  /* A window ending exactly where a segment starts leaves it out. */
  segs = ws_timeline_lod_get_segments (lod, ids.thread_a, 1.0, 1000, 1600, &n);
  g_assert_cmpuint (n, ==, 1);
  segs = ws_timeline_lod_get_segments (lod, ids.thread_a, 1.0, 6000, 7000, &n);
  g_assert_cmpuint (n, ==, 0);

  marks = ws_timeline_lod_get_marks (lod, ids.thread_a, 1.0, 0, 10000, &n);
  g_assert_cmpuint (n, ==, 1);
  g_assert_cmpint (marks[0].time, ==, 3100);
  g_assert_cmpuint (marks[0].kind, ==, WS_MARK_SAMPLE);
  marks = ws_timeline_lod_get_marks (lod, ids.thread_b, 1.0, 0, 10000, &n);
  g_assert_cmpuint (n, ==, 1);
  g_assert_cmpuint (marks[0].kind, ==, WS_MARK_UNWAIT);

  stats = ws_timeline_lod_get_stats (lod, ids.thread_a);
  g_assert_cmpint (stats->run, ==, 600 + 300 + 150);
  g_assert_cmpint (stats->ready, ==, 100 + 50);
  g_assert_cmpint (stats->wait[0], ==, 1000);
  g_assert_cmpint (stats->wait[1], ==, 1800);
  g_assert_cmpint (stats->wait[2], ==, 0);
  g_assert_cmpuint (stats->totals.n_waits, ==, 2);
  g_assert_cmpuint (stats->totals.n_unknown, ==, 1);
  g_assert_cmpuint (stats->totals.n_samples, ==, 1);
  g_assert_cmpint (stats->totals.longest_wait, ==, 1800);

  g_assert_cmpint (ws_thread_state_for_wait (ws_trace_get_event (trace, ids.wait_s)), ==, WS_THREAD_STATE_SLEEP);
  g_assert_cmpint (ws_thread_state_for_wait (ws_trace_get_event (trace, ids.wait_d)), ==, WS_THREAD_STATE_DISK_UNKNOWN);
  {
    /* Still open at the end of the recording: no readier yet, nothing lost. */
    WsEvent open = *ws_trace_get_event (trace, ids.wait_d);
    open.flags = WS_EVENT_FLAG_UNFINISHED | WS_EVENT_FLAG_UNINTERRUPTIBLE;
    g_assert_cmpint (ws_thread_state_for_wait (&open), ==, WS_THREAD_STATE_DISK);
    open.flags = 0;
    open.state = 'S';
    g_assert_cmpint (ws_thread_state_for_wait (&open), ==, WS_THREAD_STATE_SLEEP_UNKNOWN);
    open.state = 'I';
    open.peer = ids.unwait;
    g_assert_cmpint (ws_thread_state_for_wait (&open), ==, WS_THREAD_STATE_OTHER);
  }
}

/* The state a brute-force recomputation gives bucket [j·B, (j+1)·B) of a
 * level built from @prev: the state covering most of it (first on ties),
 * or -1 if nothing covers it. */
static int
brute_bucket (const WsStateSegment *prev,
              guint                 n,
              WsTime                bucket,
              WsTime                j)
{
  WsTime b0 = j * bucket, b1 = b0 + bucket;
  WsTime cover[WS_N_THREAD_STATES] = { 0 };
  int best = -1;
  WsTime best_cover = 0;

  guint lo = 0, hi = n;

  /* Segments are sorted and disjoint: start at the first ending after b0. */
  while (lo < hi)
    {
      guint mid = (lo + hi) / 2;
      if (prev[mid].t1 <= b0)
        lo = mid + 1;
      else
        hi = mid;
    }
  for (guint i = lo; i < n && prev[i].t0 < b1; i++)
    {
      WsTime a = MAX (prev[i].t0, b0), e = MIN (prev[i].t1, b1);
      if (e <= a)
        continue;
      if (prev[i].mixed)
        for (int s = 0; s < WS_N_THREAD_STATES; s++)
          cover[s] += prev[i].cover[s] * (e - a) / 255;
      else
        cover[prev[i].state] += e - a;
    }
  for (int s = 0; s < WS_N_THREAD_STATES; s++)
    if (cover[s] > best_cover)
      {
        best = s;
        best_cover = cover[s];
      }
  return best;
}

static int
state_at (const WsStateSegment *segs,
          guint                 n,
          WsTime                t)
{
  guint lo = 0, hi = n;

  while (lo < hi)
    {
      guint mid = (lo + hi) / 2;
      if (segs[mid].t1 <= t)
        lo = mid + 1;
      else
        hi = mid;
    }
  if (lo < n && segs[lo].t0 <= t)
    return segs[lo].state;
  return -1;
}

static void
test_coarse_levels_match_brute_force (void)
{
  g_autoptr(WsTrace) trace = ws_synthetic_trace_new (2, 3, 20000, 7);
  g_autoptr(WsTimelineLod) lod = ws_timeline_lod_new (trace, NULL, NULL);
  guint checked_levels = 0;

  for (guint t = 0; t < ws_trace_get_n_threads (trace); t++)
    {
      guint n_levels = ws_timeline_lod_get_n_levels (lod, t);
      guint n0, total = 0;
      WsTime prev_bucket = -1;

      ws_timeline_lod_get_level (lod, t, 0, NULL, &n0);
      g_assert_cmpuint (n_levels, >=, 3);

      for (guint l = 0; l < n_levels; l++)
        {
          WsTime bucket;
          guint n;
          const WsStateSegment *segs = ws_timeline_lod_get_level (lod, t, l, &bucket, &n);

          total += n;
          g_assert_cmpint (bucket, >, prev_bucket);
          prev_bucket = bucket;
          /* Sorted, non-overlapping, non-empty. */
          for (guint i = 0; i < n; i++)
            {
              g_assert_cmpint (segs[i].t1, >, segs[i].t0);
              if (i > 0)
                g_assert_cmpint (segs[i].t0, >=, segs[i - 1].t1);
            }
          if (l == 0)
            continue;

          /* Every bucket of the level, against the level it was built from. */
          {
            guint pn;
            const WsStateSegment *prev = ws_timeline_lod_get_level (lod, t, l - 1, NULL, &pn);
            WsTime first = prev[0].t0 / bucket, last = (prev[pn - 1].t1 - 1) / bucket;

            /* Bounded work: at most 3000 buckets per level, spread out. */
            WsTime stride = MAX ((last - first) / 3000, 1);
            for (WsTime j = first; j <= last; j += stride)
              g_assert_cmpint (state_at (segs, n, j * bucket), ==, brute_bucket (prev, pn, bucket, j));
            checked_levels++;
          }
        }
      /* Each kept level has at most 3/4 of the segments of the one before,
       * so all levels together cost at most 4× the exact one. */
      g_assert_cmpuint (total, <=, 4 * n0);
    }
  g_assert_cmpuint (checked_levels, >, 10);
}

static void
test_level_choice (void)
{
  g_autoptr(WsTrace) trace = ws_synthetic_trace_new (1, 2, 20000, 3);
  g_autoptr(WsTimelineLod) lod = ws_timeline_lod_new (trace, NULL, NULL);
  WsTime t0 = ws_trace_get_start_time (trace), t1 = ws_trace_get_end_time (trace);
  guint n_levels = ws_timeline_lod_get_n_levels (lod, 0);

  for (guint l = 0; l < n_levels; l++)
    {
      WsTime bucket;
      guint n_level, n;
      const WsStateSegment *level = ws_timeline_lod_get_level (lod, 0, l, &bucket, &n_level);
      const WsStateSegment *segs;
      WsTime next_bucket = G_MAXINT64;

      if (l + 1 < n_levels)
        ws_timeline_lod_get_level (lod, 0, l + 1, &next_bucket, &n);

      /* Any scale from this level's bucket up to (not incl.) the next one's
       * gets this level, whole when the window is the whole trace. */
      segs = ws_timeline_lod_get_segments (lod, 0, MAX (bucket, 1), t0, t1 + 1, &n);
      g_assert_true (segs == level);
      g_assert_cmpuint (n, ==, n_level);
      if (next_bucket != G_MAXINT64)
        {
          segs = ws_timeline_lod_get_segments (lod, 0, next_bucket - 0.5, t0, t1 + 1, &n);
          g_assert_true (segs == level);
        }
    }
}

/* Built on several cores, the levels are those built on one: every
 * level's segments, the waits and marks at every scale, the long waits,
 * their threshold, the totals and the memory counted, on a real trace
 * (pg-tpcb: 33 threads of very different sizes) and a synthetic one. */
static WsTimelineLod *
lod_on_threads (WsTrace    *trace,
                const char *n_threads)
{
  WsTimelineLod *lod;

  g_setenv ("WAITSCOPE_THREADS", n_threads, TRUE);
  lod = ws_timeline_lod_new (trace, NULL, NULL);
  g_unsetenv ("WAITSCOPE_THREADS");
  return lod;
}

static void
assert_same_segments (const WsStateSegment *a,
                      const WsStateSegment *b,
                      guint                 n)
{
  for (guint i = 0; i < n; i++)
    {
      g_assert_cmpint (a[i].t0, ==, b[i].t0);
      g_assert_cmpint (a[i].t1, ==, b[i].t1);
      g_assert_cmpuint (a[i].state, ==, b[i].state);
      g_assert_cmpuint (a[i].mixed, ==, b[i].mixed);
      g_assert_cmpmem (a[i].cover, sizeof a[i].cover, b[i].cover, sizeof b[i].cover);
    }
}

static void
assert_same_waits (const WsLodWait *a,
                   guint            na,
                   const WsLodWait *b,
                   guint            nb)
{
  g_assert_cmpuint (na, ==, nb);
  for (guint i = 0; i < na; i++)
    {
      g_assert_cmpint (a[i].t0, ==, b[i].t0);
      g_assert_cmpint (a[i].t1, ==, b[i].t1);
      g_assert_cmpuint (a[i].event, ==, b[i].event);
      g_assert_cmpuint (a[i].state, ==, b[i].state);
    }
}

static void
assert_same_lod (WsTrace *trace)
{
  g_autoptr(WsTimelineLod) one = lod_on_threads (trace, "1");
  g_autoptr(WsTimelineLod) many = lod_on_threads (trace, "3");
  WsTime t0 = ws_trace_get_start_time (trace), t1 = ws_trace_get_end_time (trace) + 1;
  guint n_threads = ws_trace_get_n_threads (trace), n_long = 0;

  g_assert_cmpuint (ws_timeline_lod_get_memory_size (one), ==, ws_timeline_lod_get_memory_size (many));
  g_assert_cmpint (ws_timeline_lod_get_long_wait_threshold (one), ==, ws_timeline_lod_get_long_wait_threshold (many));
  for (guint t = 0; t < n_threads; t++)
    {
      const WsThreadStats *sa = ws_timeline_lod_get_stats (one, t), *sb = ws_timeline_lod_get_stats (many, t);
      guint levels = ws_timeline_lod_get_n_levels (one, t), na, nb;
      const WsLodWait *wa, *wb;

      g_assert_cmpint (sa->run, ==, sb->run);
      g_assert_cmpint (sa->ready, ==, sb->ready);
      g_assert_cmpmem (sa->wait, sizeof sa->wait, sb->wait, sizeof sb->wait);
      g_assert_cmpuint (sa->totals.n_waits, ==, sb->totals.n_waits);
      g_assert_cmpint (sa->totals.wait_total, ==, sb->totals.wait_total);
      g_assert_cmpuint (levels, ==, ws_timeline_lod_get_n_levels (many, t));
      for (guint l = 0; l < levels; l++)
        {
          WsTime ba, bb;
          const WsStateSegment *a = ws_timeline_lod_get_level (one, t, l, &ba, &na);
          const WsStateSegment *b = ws_timeline_lod_get_level (many, t, l, &bb, &nb);

          g_assert_cmpint (ba, ==, bb);
          g_assert_cmpuint (na, ==, nb);
          assert_same_segments (a, b, na);
        }
      for (double ns_per_px = 1; ns_per_px < 1e10; ns_per_px *= 7)
        {
          const WsLodMark *ma, *mb;

          wa = ws_timeline_lod_get_waits (one, t, ns_per_px, t0, t1, &na);
          wb = ws_timeline_lod_get_waits (many, t, ns_per_px, t0, t1, &nb);
          assert_same_waits (wa, na, wb, nb);
          ma = ws_timeline_lod_get_marks (one, t, ns_per_px, t0, t1, &na);
          mb = ws_timeline_lod_get_marks (many, t, ns_per_px, t0, t1, &nb);
          g_assert_cmpuint (na, ==, nb);
          for (guint i = 0; i < na; i++)
            {
              g_assert_cmpint (ma[i].time, ==, mb[i].time);
              g_assert_cmpuint (ma[i].kind, ==, mb[i].kind);
            }
        }
      wa = ws_timeline_lod_get_long_waits (one, t, t0, t1, &na);
      wb = ws_timeline_lod_get_long_waits (many, t, t0, t1, &nb);
      assert_same_waits (wa, na, wb, nb);
      n_long += na;
    }
  /* The long waits are a quantile of the durations every worker kept. */
  g_assert_cmpuint (n_long, >, 0);
}

static void
test_threads_same_levels (void)
{
  g_autofree char *path = g_build_filename (g_getenv ("WS_TEST_DATA"), "pg-tpcb.perf.txt.gz", NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(WsTrace) real = ws_trace_loader_load (path, NULL, NULL, NULL, NULL, &error);
  g_autoptr(WsTrace) synthetic = ws_synthetic_trace_new (4, 5, 20000, 11);

  g_assert_no_error (error);
  g_assert_cmpuint (ws_trace_get_n_threads (real), >, 3);
  assert_same_lod (real);
  assert_same_lod (synthetic);
}

/* The fast build gives what the plain one gives (ws-timeline-lod-reference.c):
 * every level, mark, wait, total and the long-wait threshold, on the real
 * trace and on synthetic ones of several shapes and seeds, on one worker
 * and on three. */
static void
test_same_as_reference (void)
{
  g_autofree char *path = g_build_filename (g_getenv ("WS_TEST_DATA"), "pg-tpcb.perf.txt.gz", NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(WsTrace) real = ws_trace_loader_load (path, NULL, NULL, NULL, NULL, &error);

  g_assert_no_error (error);
  for (guint workers = 1; workers <= 3; workers += 2)
    {
      g_autofree char *n = g_strdup_printf ("%u", workers);
      g_autoptr(WsTimelineLod) lod = lod_on_threads (real, n);

      ws_timeline_lod_assert_as_reference (lod, real);
    }
  for (guint seed = 1; seed <= 6; seed++)
    {
      g_autoptr(WsTrace) synthetic = ws_synthetic_trace_new (1 + seed % 3, 2 + seed, 3000 * seed, seed);
      g_autoptr(WsTimelineLod) lod = ws_timeline_lod_new (synthetic, NULL, NULL);

      ws_timeline_lod_assert_as_reference (lod, synthetic);
    }
}

/* Random exact segments of a few states, of lengths from 1 ns to a few
 * buckets, with gaps now and then; touching segments differ in state, as
 * in level 0. */
static GArray *
random_level0 (GRand *rand,
               guint  n)
{
  GArray *out = g_array_new (FALSE, FALSE, sizeof (WsStateSegment));
  WsTime t = g_rand_int_range (rand, -100000, 100000);
  static const WsTime scales[] = { 4, 300, 1200, 5000, 20000, 100000 };

  for (guint i = 0; i < n; i++)
    {
      WsStateSegment seg = { 0 };
      WsTime scale = scales[g_rand_int_range (rand, 0, G_N_ELEMENTS (scales))];

      if (g_rand_int_range (rand, 0, 4) == 0)
        t += g_rand_int_range (rand, 1, g_rand_boolean (rand) ? 3 : 2000);
      seg.t0 = t;
      seg.t1 = t + g_rand_int_range (rand, 1, (gint32) scale + 1);
      seg.state = g_rand_int_range (rand, 0, 3);
      if (out->len > 0)
        {
          const WsStateSegment *prev = &g_array_index (out, WsStateSegment, out->len - 1);
          if (prev->t1 == seg.t0 && prev->state == seg.state)
            seg.state = (seg.state + 1) % 3;
        }
      g_array_append_val (out, seg);
      t = seg.t1;
    }
  return out;
}

/* The law the build relies on to skip a level: the cheap count never
 * exceeds the segments the level really has, from exact segments and from
 * coarser levels holding mixed buckets, at buckets 1 to 64 times finer
 * than the segments and coarser. */
static void
test_lower_bound_law (void)
{
  g_autoptr(GRand) rand = g_rand_new_with_seed (29);
  guint checked = 0, tight = 0;

  /* One state with a 1 ns gap every 2.7 µs: at 256 ns the gaps become
   * mixed buckets 255/255 covered, which at 1024 ns read as whole again,
   * so the runs around them merge into one (two segments in all); a count
   * that took each run for a segment of its own would be 10. */
  {
    g_autoptr(GArray) level0 = g_array_new (FALSE, FALSE, sizeof (WsStateSegment));
    g_autofree WsStateSegment *level1 = NULL, *level2 = NULL;
    guint n1, n2;

    for (WsTime t = 0; t < 10 * 2700; t += 2700)
      {
        WsStateSegment seg = { t == 0 ? 0 : t + 1, t + 2700, WS_THREAD_STATE_SLEEP };
        g_array_append_val (level0, seg);
      }
    level1 = ws_timeline_lod_build_level ((const WsStateSegment *) (gpointer) level0->data, level0->len,
                                          256, G_MAXUINT - 1, &n1);
    level2 = ws_timeline_lod_build_level (level1, n1, 1024, G_MAXUINT - 1, &n2);
    g_assert_cmpuint (n2, ==, 2);
    g_assert_cmpuint (ws_timeline_lod_level_lower_bound (level1, n1, 1024, G_MAXUINT - 1), <=, n2);
  }

  for (guint round = 0; round < 300; round++)
    {
      g_autoptr(GArray) level = random_level0 (rand, g_rand_int_range (rand, 1, 400));
      WsTime bucket = WS_TIMELINE_LOD_BASE_BUCKET;

      for (guint depth = 0; depth < 6 && level->len > 0; depth++, bucket *= 4)
        {
          const WsStateSegment *segs = (const WsStateSegment *) (gpointer) level->data;
          WsStateSegment *next = NULL;
          guint n_next = 0;

          for (WsTime b = bucket; b <= bucket * 64; b *= 4)
            {
              guint n_built = 0;
              g_autofree WsStateSegment *built = ws_timeline_lod_build_level (segs, level->len, b, G_MAXUINT - 1, &n_built);
              guint bound = ws_timeline_lod_level_lower_bound (segs, level->len, b, G_MAXUINT - 1);

              g_assert_cmpuint (bound, <=, n_built);
              /* Stopped early, past some @max, the same holds. */
              g_assert_cmpuint (ws_timeline_lod_level_lower_bound (segs, level->len, b,
                                                                   g_rand_int_range (rand, 0, n_built + 2)),
                                <=, n_built);
              checked++;
              tight += bound == n_built;
            }
          next = ws_timeline_lod_build_level (segs, level->len, bucket, G_MAXUINT - 1, &n_next);
          g_array_set_size (level, 0);
          g_array_append_vals (level, next, n_next);
          g_free (next);
        }
    }
  /* Not a vacuous bound: often exact. */
  g_assert_cmpuint (checked, >, 1000);
  g_assert_cmpuint (tight, >, checked / 10);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/timeline/lod/level0-exact", test_level0_exact);
  g_test_add_func ("/timeline/lod/coarse-levels-brute-force", test_coarse_levels_match_brute_force);
  g_test_add_func ("/timeline/lod/level-choice", test_level_choice);
  g_test_add_func ("/timeline/lod/threads-same-levels", test_threads_same_levels);
  g_test_add_func ("/timeline/lod/same-as-reference", test_same_as_reference);
  g_test_add_func ("/timeline/lod/lower-bound-law", test_lower_bound_law);

  return g_test_run ();
}
