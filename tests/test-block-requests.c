/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The block layer's requests (ws-block-requests.c) and whose requests were
 * on the device while a thread waited for its own I/O (ws-behind.c):
 *
 * - the tracepoints' printed fields as this machine's kernel prints them,
 *   and as kernels before the ioprio field did;
 * - pairing over random request streams, against the generator's own
 *   truth (each request knows its completion), the records shuffled;
 * - the device queue of a perf text trace written here, by hand;
 * - over random requests, the time each other process had a request in
 *   flight inside a window, against a tally on a 1 µs grid.
 */
#include "config.h"

#include <glib/gstdio.h>
#include <string.h>

#include "ws-behind.h"
#include "ws-block-requests.h"
#include "ws-perf-importer.h"

static void
test_parse (void)
{
  static const char issue[] = "254,0 WS 1048576 () 174233600 + 2048 0x2,0,4 [dd]";
  static const char complete[] = "254,0 FF () 18446744073709551615 + 0 0x0,0,0 [0]";
  static const char old_issue[] = "8,16 RA 4096 () 2048 + 8 [cat]";
  static const char preflush[] = "259,3 FWS 0 () 0 + 0 [jbd2/nvme0n1p2]";
  static const char *const bad[] = {
    "", "254 WS 4096 () 1 + 8 [x]", "254,0", "254,0 WS", "254,0 WS x () 1 + 8 [x]",
    "254,0 WS 4096 1 + 8 [x]", "254,0 WS 4096 () 1 8 [x]", "254,0 WS 4096 () 1 + [x]",
    "99999,0 WS 4096 () 1 + 8", "254,0 WS 4096 () 99999999999999999999999 + 8",
  };
  guint32 device, n, bytes = 7;
  guint64 sector;
  gchar op;

  g_assert_true (ws_block_parse_fields (issue, issue + strlen (issue), TRUE, &device, &op, &sector, &n, &bytes));
  g_assert_cmpuint (WS_BLOCK_DEVICE_MAJOR (device), ==, 254);
  g_assert_cmpuint (WS_BLOCK_DEVICE_MINOR (device), ==, 0);
  g_assert_cmpint (op, ==, 'W');
  g_assert_cmpuint (sector, ==, 174233600);
  g_assert_cmpuint (n, ==, 2048);
  g_assert_cmpuint (bytes, ==, 1048576);

  bytes = 7;
  g_assert_true (ws_block_parse_fields (complete, complete + strlen (complete), FALSE, &device, &op, &sector, &n, &bytes));
  g_assert_cmpint (op, ==, 'F');
  g_assert_cmpuint (sector, ==, G_MAXUINT64);
  g_assert_cmpuint (n, ==, 0);
  g_assert_cmpuint (bytes, ==, 7);   /* a completion has no size */

  g_assert_true (ws_block_parse_fields (old_issue, old_issue + strlen (old_issue), TRUE, &device, &op, &sector, &n, &bytes));
  g_assert_cmpuint (WS_BLOCK_DEVICE_MAJOR (device), ==, 8);
  g_assert_cmpuint (WS_BLOCK_DEVICE_MINOR (device), ==, 16);
  g_assert_cmpint (op, ==, 'R');
  g_assert_true (ws_block_parse_fields (preflush, preflush + strlen (preflush), TRUE, &device, &op, &sector, &n, &bytes));
  g_assert_cmpint (op, ==, 'W');   /* a preflush before a write is a write */

  for (guint i = 0; i < G_N_ELEMENTS (bad); i++)
    g_assert_false (ws_block_parse_fields (bad[i], bad[i] + strlen (bad[i]), TRUE, &device, &op, &sector, &n, &bytes));
}

typedef struct {
  WsTime  issue;
  WsTime  complete;
  guint64 sector;
  guint32 n;
  guint32 device;
  guint   thread;
  gchar   op;
  gboolean completed;
} Truth;

/* Random requests on 3 devices, several in flight at once, no two of one
 * key (device, op, sector range) in flight together — as the kernel
 * issues them — and flushes (no range) that complete in order. */
static GArray *
random_truth (GRand *rand,
              guint  n)
{
  GArray *truth = g_array_new (FALSE, TRUE, sizeof (Truth));
  WsTime t = 1000;

  for (guint i = 0; i < n; i++)
    {
      Truth r = { 0 };
      gboolean clash;

      t += g_rand_int_range (rand, 1, 50);   /* flushes of equal times would pair either way */
      r.issue = t;
      r.device = g_rand_int_range (rand, 0, 3) << 20 | 1;
      r.thread = g_rand_int_range (rand, 0, 5);
      r.op = "RWWF"[g_rand_int_range (rand, 0, 4)];
      r.n = r.op == 'F' ? 0 : 8 * g_rand_int_range (rand, 1, 4);
      r.sector = r.op == 'F' ? 0 : 8 * (guint64) g_rand_int_range (rand, 0, 40);
      r.complete = r.issue + g_rand_int_range (rand, 0, 400);
      r.completed = g_rand_int_range (rand, 0, 10) > 0;
      if (r.op == 'F')
        {
          /* flushes of a device complete in order of issue */
          for (guint j = 0; j < truth->len; j++)
            {
              Truth *o = &g_array_index (truth, Truth, j);
              if (o->op == 'F' && o->device == r.device)
                r.complete = MAX (r.complete, o->complete + 1), r.completed &= o->completed;
            }
        }
      clash = FALSE;
      for (guint j = 0; j < truth->len && r.op != 'F'; j++)
        {
          Truth *o = &g_array_index (truth, Truth, j);
          if (o->device == r.device && o->op == r.op && o->sector == r.sector && o->n == r.n &&
              (!o->completed || o->complete >= r.issue))
            clash = TRUE;
        }
      if (!clash)
        g_array_append_val (truth, r);
    }
  return truth;
}

static void
test_pairing_random (void)
{
  g_autoptr(GRand) rand = g_rand_new_with_seed (23);

  for (guint round = 0; round < 200; round++)
    {
      g_autoptr(GArray) truth = random_truth (rand, g_rand_int_range (rand, 1, 80));
      g_autoptr(GArray) order = g_array_new (FALSE, FALSE, sizeof (guint));
      WsBlockRequests *requests = ws_block_requests_new ();

      /* issues and completions in a random order: finish sorts them */
      for (guint i = 0; i < 2 * truth->len; i++)
        g_array_append_val (order, i);
      for (guint i = order->len; i > 1; i--)
        {
          guint j = g_rand_int_range (rand, 0, i), tmp = g_array_index (order, guint, i - 1);
          g_array_index (order, guint, i - 1) = g_array_index (order, guint, j);
          g_array_index (order, guint, j) = tmp;
        }
      for (guint k = 0; k < order->len; k++)
        {
          guint i = g_array_index (order, guint, k);
          const Truth *r = &g_array_index (truth, Truth, i / 2);

          if (i % 2 == 0)
            ws_block_requests_add_issue (requests, r->issue, r->thread, r->device, r->op, r->sector, r->n, 0);
          else if (r->completed)
            /* a flush completes with no sector: "18446744073709551615 + 0" */
            ws_block_requests_add_complete (requests, r->complete, r->device, r->op,
                                            r->op == 'F' ? G_MAXUINT64 : r->sector, r->n);
        }
      ws_block_requests_finish (requests, NULL, NULL);

      g_assert_cmpuint (ws_block_requests_get_n (requests), ==, truth->len);
      g_assert_cmpuint (ws_block_requests_get_n_orphans (requests), ==, 0);
      for (guint i = 0; i < truth->len; i++)
        {
          const Truth *r = &g_array_index (truth, Truth, i);
          gboolean found = FALSE;

          for (guint j = 0; j < ws_block_requests_get_n (requests) && !found; j++)
            {
              const WsBlockRequest *q = ws_block_requests_get (requests, j);

              found = q->issue == r->issue && q->device == r->device && q->op == r->op &&
                      q->thread == r->thread && (r->op == 'F' || q->sector == r->sector) &&
                      q->complete == (r->completed ? r->complete : r->issue) &&
                      !!(q->flags & WS_BLOCK_REQUEST_UNFINISHED) == !r->completed &&
                      q->bytes == r->n * 512u;
            }
          g_assert_true (found);
        }
      for (guint j = 1; j < ws_block_requests_get_n (requests); j++)
        g_assert_cmpint (ws_block_requests_get (requests, j - 1)->issue, <=, ws_block_requests_get (requests, j)->issue);
      ws_block_requests_free (requests);
    }
}

/* A completion whose issue was before the recording: left out, counted. */
static void
test_orphan (void)
{
  WsBlockRequests *requests = ws_block_requests_new ();

  ws_block_requests_add_complete (requests, 50, 1, 'W', 8, 8);
  ws_block_requests_add_issue (requests, 100, 0, 1, 'W', 8, 8, 4096);
  ws_block_requests_add_complete (requests, 180, 1, 'W', 8, 8);
  ws_block_requests_finish (requests, NULL, NULL);
  ws_block_requests_finish (requests, NULL, NULL);   /* finished again: unchanged */
  g_assert_cmpuint (ws_block_requests_get_n (requests), ==, 1);
  g_assert_cmpuint (ws_block_requests_get_n_orphans (requests), ==, 1);
  g_assert_cmpint (ws_block_requests_get (requests, 0)->complete, ==, 180);
  g_assert_cmpint (ws_block_requests_get_longest (requests), ==, 80);
  ws_block_requests_free (requests);
}

static WsTrace *
load_text (const char *text)
{
  g_autofree char *dir = g_dir_make_tmp ("ws-block-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "block.perf.txt", NULL);
  g_autoptr(GError) error = NULL;
  WsTrace *trace;

  g_assert_true (g_file_set_contents (path, text, -1, NULL));
  trace = ws_perf_importer_load (path, NULL, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  g_unlink (path);
  g_rmdir (dir);
  return trace;
}

typedef struct {
  WsTrace *trace;
  GHashTable *time;   /* tid -> WsTime */
  GHashTable *bytes;  /* tid -> bytes */
} Seen;

static void
seen (guint    thread,
      WsTime   time,
      guint64  bytes,
      guint32  device,
      gpointer data)
{
  Seen *s = data;
  gpointer tid = GINT_TO_POINTER (ws_trace_get_thread (s->trace, thread)->tid);

  g_assert_null (g_hash_table_lookup (s->time, tid));   /* one call per thread */
  g_hash_table_insert (s->time, tid, GSIZE_TO_POINTER ((gsize) time));
  g_hash_table_insert (s->bytes, tid, GSIZE_TO_POINTER ((gsize) bytes));
}

/* By hand: the committing thread (pid 100) waits uninterruptibly from
 * 1.000 to 1.010 s for its own write on 254:0.  dd (pid 200) has two
 * requests there, overlapping: in flight 1.002–1.008, 6 ms, of 1 MiB each
 * wholly inside.  cp (pid 300) writes to another device (8:0): not the
 * same queue.  The flusher (kworker, pid 40) has a request half inside
 * the wait: 2 ms, half its 8 KiB.  The thread's own process's requests
 * are not competitors.  A reader's completion was not recorded (the
 * kernel loses some in idle CPUs' interrupts): its request ends when
 * the reader's wait for it ended, 1.0031 s: 2.1 ms. */
static const char trace_text[] =
  "kworker/u8:2 40/40 [001] 0.998000: 1 block:block_rq_issue: 254,0 W 8192 () 500 + 16 0x2,0,4 [kworker/u8:2]\n"
  "fsw 100/101 [000] 0.999000: 1 block:block_rq_issue: 254,0 WS 4096 () 80 + 8 0x1,0,4 [fsw]\n"
  "fsw 100/101 [000] 1.000000: 1 sched:sched_switch: prev_comm=fsw prev_pid=101 prev_prio=120 prev_state=D ==> next_comm=swapper/0 next_pid=0 next_prio=120\n"
  "rd 500/500 [001] 1.001000: 1 block:block_rq_issue: 254,0 R 4096 () 900 + 8 0x2,0,4 [rd]\n"
  "rd 500/500 [001] 1.001100: 1 sched:sched_switch: prev_comm=rd prev_pid=500 prev_prio=120 prev_state=D ==> next_comm=swapper/1 next_pid=0 next_prio=120\n"
  "dd 200/200 [001] 1.002000: 1 block:block_rq_issue: 254,0 WS 1048576 () 10000 + 2048 0x2,0,4 [dd]\n"
  "kworker/u8:2 40/40 [001] 1.002000: 1 block:block_rq_complete: 254,0 W () 500 + 16 0x2,0,4 [0]\n"
  "cp 300/300 [001] 1.003000: 1 block:block_rq_issue: 8,0 WS 4096 () 64 + 8 0x2,0,4 [cp]\n"
  "dd 200/200 [001] 1.004000: 1 block:block_rq_issue: 254,0 WS 1048576 () 12048 + 2048 0x2,0,4 [dd]\n"
  "swapper 0/0 [001] 1.003100: 1 sched:sched_switch: prev_comm=swapper/1 prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=rd next_pid=500 next_prio=120\n"
  "swapper 0/0 [001] 1.006000: 1 block:block_rq_complete: 254,0 WS () 10000 + 2048 0x2,0,4 [0]\n"
  "swapper 0/0 [001] 1.007000: 1 block:block_rq_complete: 8,0 WS () 64 + 8 0x2,0,4 [0]\n"
  "swapper 0/0 [001] 1.008000: 1 block:block_rq_complete: 254,0 WS () 12048 + 2048 0x2,0,4 [0]\n"
  "swapper 0/0 [000] 1.009500: 1 block:block_rq_complete: 254,0 WS () 80 + 8 0x1,0,4 [0]\n"
  "swapper 0/0 [000] 1.010000: 1 sched:sched_switch: prev_comm=swapper/0 prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=fsw next_pid=101 next_prio=120\n";

static void
test_device_queue (void)
{
  g_autoptr(WsTrace) trace = load_text (trace_text);
  g_autoptr(WsBehindIndex) index = ws_behind_index_new (trace);
  g_autoptr(GHashTable) time = g_hash_table_new (NULL, NULL);
  g_autoptr(GHashTable) bytes = g_hash_table_new (NULL, NULL);
  Seen s = { trace, time, bytes };
  const WsBlockRequests *requests = ws_trace_get_block_requests (trace);
  WsBehindWhat what;
  guint by_wait = 0;

  g_assert_cmpuint (ws_block_requests_get_n (requests), ==, 6);
  g_assert_cmpuint (ws_block_requests_get_n_unfinished (requests, &by_wait), ==, 1);
  g_assert_cmpuint (by_wait, ==, 1);
  what = ws_behind_index_disk (index, 1000000000, 1010000000, ws_trace_find_thread (trace, 101), seen, &s);
  g_assert_cmpint (what, ==, WS_BEHIND_REQUESTS);
  g_assert_cmpuint (g_hash_table_size (time), ==, 3);
  g_assert_cmpint (GPOINTER_TO_SIZE (g_hash_table_lookup (time, GINT_TO_POINTER (500))), ==, 2100000);
  g_assert_cmpint (GPOINTER_TO_SIZE (g_hash_table_lookup (bytes, GINT_TO_POINTER (500))), ==, 4096);
  g_assert_cmpint (GPOINTER_TO_SIZE (g_hash_table_lookup (time, GINT_TO_POINTER (200))), ==, 6000000);
  g_assert_cmpint (GPOINTER_TO_SIZE (g_hash_table_lookup (bytes, GINT_TO_POINTER (200))), ==, 2 * 1048576);
  g_assert_cmpint (GPOINTER_TO_SIZE (g_hash_table_lookup (time, GINT_TO_POINTER (40))), ==, 2000000);
  g_assert_cmpint (GPOINTER_TO_SIZE (g_hash_table_lookup (bytes, GINT_TO_POINTER (40))), ==, 4096);
}

/* The law over random requests: each other process's thread is reported
 * once, with the time it had at least one request in flight on the
 * waiting process's devices inside the window — tallied here on a 1 µs
 * grid, with nothing of the index's sorting or merging. */
static void
test_device_queue_random (void)
{
  g_autoptr(GRand) rand = g_rand_new_with_seed (5);

  for (guint round = 0; round < 60; round++)
    {
      GString *text = g_string_new (NULL);
      g_autoptr(GArray) truth = random_truth (rand, g_rand_int_range (rand, 1, 60));
      g_autoptr(WsTrace) trace = NULL;
      g_autoptr(WsBehindIndex) index = NULL;
      g_autoptr(GHashTable) time = g_hash_table_new (NULL, NULL);
      g_autoptr(GHashTable) bytes = g_hash_table_new (NULL, NULL);
      Seen s = { NULL, time, bytes };
      WsTime start = 1000 + g_rand_int_range (rand, 0, 800), end = start + g_rand_int_range (rand, 1, 900);
      WsTime last = 0;
      gboolean own_device[3] = { FALSE, FALSE, FALSE }, any_own = FALSE;
      guint n_threads = 0;

      /* times in µs; thread 0 is the waiting process's (tid 10), the
       * others tids 11… of processes of their own; records by time */
      for (guint i = 0; i < truth->len; i++)
        {
          const Truth *r = &g_array_index (truth, Truth, i);
          last = MAX (last, r->completed ? r->complete : r->issue);
        }
      for (WsTime us = 0; us <= last + 1; us++)
        for (guint i = 0; i < truth->len; i++)
          {
            const Truth *r = &g_array_index (truth, Truth, i);
            guint tid = 10 + r->thread;

            if (r->issue == us)
              g_string_append_printf (text, "p%u %u/%u [000] %" G_GINT64_FORMAT ".%06" G_GINT64_FORMAT
                                      ": 1 block:block_rq_issue: %u,1 %c %u () %" G_GUINT64_FORMAT " + %u [p]\n",
                                      tid, tid, tid, us / 1000000, us % 1000000, r->device >> 20, r->op,
                                      r->n * 512u, r->sector, r->n);
            if (r->completed && r->complete == us)
              g_string_append_printf (text, "swapper 0/0 [000] %" G_GINT64_FORMAT ".%06" G_GINT64_FORMAT
                                      ": 1 block:block_rq_complete: %u,1 %c () %" G_GUINT64_FORMAT " + %u [0]\n",
                                      us / 1000000, us % 1000000, r->device >> 20, r->op,
                                      r->op == 'F' ? G_MAXUINT64 : r->sector, r->n);
          }
      /* the waiting thread must exist: one event of its own at the start */
      g_string_prepend (text, "p10 10/10 [000] 0.000000: 1 sched:sched_switch: prev_comm=p10 prev_pid=10 prev_prio=120 "
                              "prev_state=D ==> next_comm=swapper/0 next_pid=0 next_prio=120\n");
      trace = load_text (text->str);
      g_string_free (text, TRUE);
      s.trace = trace;
      index = ws_behind_index_new (trace);
      ws_behind_index_disk (index, start * 1000, end * 1000, ws_trace_find_thread (trace, 10), seen, &s);

      /* the oracle: a request with no completion (and an issuer that
       * never waits) has no known time in flight */
      for (guint i = 0; i < truth->len; i++)
        {
          const Truth *r = &g_array_index (truth, Truth, i);
          WsTime complete = r->completed ? r->complete : r->issue;   /* unknown: zero length */

          if (r->thread == 0 && r->issue < end && (complete > start || (complete == r->issue && r->issue >= start)))
            own_device[r->device >> 20] = any_own = TRUE;
        }
      for (guint thread = 1; thread < 5; thread++)
        {
          WsTime covered = 0;

          for (WsTime us = start; us < end; us++)
            for (guint i = 0; i < truth->len; i++)
              {
                const Truth *r = &g_array_index (truth, Truth, i);
                WsTime complete = r->completed ? r->complete : r->issue;

                if (r->thread == thread && r->issue <= us && us < complete &&
                    (!any_own || own_device[r->device >> 20]))
                  {
                    covered++;
                    break;
                  }
              }
          if (covered > 0)
            n_threads++;
          g_assert_cmpint (GPOINTER_TO_SIZE (g_hash_table_lookup (time, GINT_TO_POINTER (10 + thread))), ==, covered * 1000);
        }
      g_assert_cmpuint (g_hash_table_size (time), ==, n_threads);
    }
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/block-requests/parse", test_parse);
  g_test_add_func ("/block-requests/pairing-random", test_pairing_random);
  g_test_add_func ("/block-requests/orphan", test_orphan);
  g_test_add_func ("/block-requests/device-queue", test_device_queue);
  g_test_add_func ("/block-requests/device-queue-random", test_device_queue_random);
  return g_test_run ();
}
