/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * WsProgressRelay carries worker threads' reports to the main thread:
 * coalesced into one idle (fewer callbacks than reports), always ending on
 * the last report, never calling back once disposed.  No display needed:
 * the relay is GLib only, the main context is iterated by hand.
 */
#include "config.h"

#include "ws-progress-relay.h"

#define N_REPORTS 2000

typedef struct {
  GThread    *main_thread;
  guint       n_calls;
  double      fraction;
  char       *message;      /* the latest non-NULL message delivered */
  guint       n_destroyed;
} Received;

static void
received_cb (double      fraction,
             const char *message,
             gpointer    user_data)
{
  Received *r = user_data;

  g_assert_true (g_thread_self () == r->main_thread);
  r->n_calls++;
  r->fraction = fraction;
  if (message != NULL)
    {
      g_free (r->message);
      r->message = g_strdup (message);
    }
}

static void
received_destroy (gpointer user_data)
{
  Received *r = user_data;

  r->n_destroyed++;
}

typedef struct {
  WsProgressRelay *relay;
  guint            first;     /* reports first, first + 2, … */
  gint            *n_running;
} Worker;

/* Reports fractions first/N, (first + 2)/N, … below 1, a message every 100. */
static gpointer
worker_thread (gpointer data)
{
  Worker *w = data;

  for (guint i = w->first; i < N_REPORTS; i += 2)
    {
      g_autofree char *message = i % 100 == 0 ? g_strdup_printf ("step %u", i) : NULL;

      ws_progress_relay_report ((double) i / N_REPORTS, message, w->relay);
      if (message != NULL)
        g_usleep (500);   /* some work, so that the main thread publishes on the way */
    }
  g_atomic_int_dec_and_test (w->n_running);
  return NULL;
}

static gpointer
last_report_thread (gpointer data)
{
  ws_progress_relay_report (1.0, "done", data);
  return NULL;
}

/* Two workers report N_REPORTS in all, then a third thread the last one. */
static void
run_workers (WsProgressRelay *relay,
             Received        *r,
             gboolean         iterate_meanwhile)
{
  gint n_running = 2;
  Worker workers[2] = { { relay, 0, &n_running }, { relay, 1, &n_running } };
  GThread *threads[2];

  threads[0] = g_thread_new ("relay-worker-0", worker_thread, &workers[0]);
  threads[1] = g_thread_new ("relay-worker-1", worker_thread, &workers[1]);
  /* Publish while the workers run, as the main loop would. */
  while (iterate_meanwhile && g_atomic_int_get (&n_running) > 0)
    g_main_context_iteration (NULL, FALSE);
  g_thread_join (threads[0]);
  g_thread_join (threads[1]);
  g_thread_join (g_thread_new ("relay-last", last_report_thread, relay));
  while (g_main_context_iteration (NULL, FALSE))
    ;
  g_assert_cmpfloat (r->fraction, ==, 1.0);
  g_assert_cmpstr (r->message, ==, "done");
}

static void
test_coalesced_from_two_threads (void)
{
  Received r = { g_thread_self (), 0, 0, NULL, 0 };
  g_autoptr(WsProgressRelay) relay = ws_progress_relay_new (received_cb, &r, received_destroy);

  /* Nobody iterates while the threads report: all of it is one call. */
  run_workers (relay, &r, FALSE);
  g_assert_cmpuint (r.n_calls, ==, 1);

  /* Iterating meanwhile publishes some on the way, never more calls than
   * reports, and still ends on the last one. */
  r.n_calls = 0;
  g_clear_pointer (&r.message, g_free);
  run_workers (relay, &r, TRUE);
  g_assert_cmpuint (r.n_calls, >=, 1);
  g_assert_cmpuint (r.n_calls, <=, N_REPORTS + 1);
  g_test_message ("%u calls for %u reports", r.n_calls, N_REPORTS + 1);

  /* Nothing pending: iterating again calls nothing. */
  {
    guint n = r.n_calls;

    g_assert_false (g_main_context_iteration (NULL, FALSE));
    g_assert_cmpuint (r.n_calls, ==, n);
  }

  /* A burst from one thread with no iteration in between is one call,
   * with the last fraction and the last non-NULL message. */
  {
    guint n = r.n_calls;

    ws_progress_relay_report (0.1, "a", relay);
    ws_progress_relay_report (0.2, "b", relay);
    ws_progress_relay_report (0.3, NULL, relay);
    while (g_main_context_iteration (NULL, FALSE))
      ;
    g_assert_cmpuint (r.n_calls, ==, n + 1);
    g_assert_cmpfloat (r.fraction, ==, 0.3);
    g_assert_cmpstr (r.message, ==, "b");
  }

  g_clear_object (&relay);
  g_assert_cmpuint (r.n_destroyed, ==, 1);
  g_free (r.message);
}

/* A report with no message after a published one delivers NULL, so the
 * receiver keeps what it shows. */
static void
test_message_not_repeated (void)
{
  g_autoptr(WsProgressRelay) relay = NULL;
  Received r = { g_thread_self (), 0, 0, NULL, 0 };

  relay = ws_progress_relay_new (received_cb, &r, NULL);
  ws_progress_relay_report (0.5, "half", relay);
  while (g_main_context_iteration (NULL, FALSE))
    ;
  g_clear_pointer (&r.message, g_free);
  ws_progress_relay_report (0.6, NULL, relay);
  while (g_main_context_iteration (NULL, FALSE))
    ;
  g_assert_cmpuint (r.n_calls, ==, 2);
  g_assert_cmpfloat (r.fraction, ==, 0.6);
  g_assert_null (r.message);
}

static guint owner_calls;

static void
owner_cb (double      fraction,
          const char *message,
          gpointer    owner)
{
  g_assert_true (G_IS_OBJECT (owner));
  owner_calls++;
}

/* A relay made for an owner calls it while it lives; reports that a job
 * makes after its page went away land nowhere. */
static void
test_owner_gone (void)
{
  GObject *owner = g_object_new (G_TYPE_OBJECT, NULL);
  g_autoptr(WsProgressRelay) relay = ws_progress_relay_new_for_owner (owner, owner_cb);

  owner_calls = 0;
  ws_progress_relay_report (0.25, "alive", relay);
  while (g_main_context_iteration (NULL, FALSE))
    ;
  g_assert_cmpuint (owner_calls, ==, 1);
  ws_progress_relay_report (0.5, "pending when the owner goes", relay);
  g_object_unref (owner);
  ws_progress_relay_report (0.75, "after", relay);
  while (g_main_context_iteration (NULL, FALSE))
    ;
  g_assert_cmpuint (owner_calls, ==, 1);
}

static void
test_dispose_pending (void)
{
  Received r = { g_thread_self (), 0, 0, NULL, 0 };
  WsProgressRelay *relay = ws_progress_relay_new (received_cb, &r, received_destroy);

  ws_progress_relay_report (0.5, "pending", relay);
  g_object_unref (relay);
  g_assert_cmpuint (r.n_destroyed, ==, 1);
  while (g_main_context_iteration (NULL, FALSE))
    ;
  g_assert_cmpuint (r.n_calls, ==, 0);
  g_assert_null (r.message);
}

static void
test_cancel_pending (void)
{
  Received r = { g_thread_self (), 0, 0, NULL, 0 };
  g_autoptr(WsProgressRelay) relay = ws_progress_relay_new (received_cb, &r, NULL);

  ws_progress_relay_report (0.5, "dropped", relay);
  ws_progress_relay_cancel_pending (relay);
  while (g_main_context_iteration (NULL, FALSE))
    ;
  g_assert_cmpuint (r.n_calls, ==, 0);

  /* A later report is published again, without the dropped message. */
  ws_progress_relay_report (0.7, NULL, relay);
  while (g_main_context_iteration (NULL, FALSE))
    ;
  g_assert_cmpuint (r.n_calls, ==, 1);
  g_assert_cmpfloat (r.fraction, ==, 0.7);
  g_assert_null (r.message);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/progress-relay/coalesced-two-threads", test_coalesced_from_two_threads);
  g_test_add_func ("/progress-relay/message-not-repeated", test_message_not_repeated);
  g_test_add_func ("/progress-relay/dispose-pending", test_dispose_pending);
  g_test_add_func ("/progress-relay/owner-gone", test_owner_gone);
  g_test_add_func ("/progress-relay/cancel-pending", test_cancel_pending);
  return g_test_run ();
}
