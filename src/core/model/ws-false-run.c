/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * False runs: a timed-out lock wait that the thread re-enters is one wait.
 *
 * A program that takes a lock with a deadline in a loop
 * (pthread_mutex_timedlock, sem_timedwait, Python's acquire(timeout=…),
 * CPython's 5 ms GIL wait, PostgreSQL's ProcSleep waking for its deadlock
 * check) records its wait for the holder as a run of pieces: each ended by
 * a timer, the thread runs a few microseconds, and blocks again on the same
 * lock; only the last piece is ended by the holder.  Read piece by piece,
 * the timer gets the credit and the holder only the last piece.
 *
 * The rule, checked on each thread's events in time order.  A WAIT event P
 * *continues into* the thread's next WAIT event Q when
 *
 *  1. P is a lock wait (a lock frame in its waiting stack) and a timer
 *     ended it (a false-run frame in the wake-up's stack): the program's
 *     own timeout, not the lock's release.  Only the waiting stack says
 *     what P waited for: a timer's wake-up runs in an interrupt, on top of
 *     whatever thread it interrupted, and that thread may well be in a
 *     lock function of its own;
 *  2. Q is a lock wait in the same call of the program: its waiting stack
 *     is P's once the lock implementation's frames at the leaf end are left
 *     out (the kernel, shared system libraries, lock-list functions,
 *     unnamed frames).  A timed condition wait that runs out re-takes its
 *     mutex (pthread_cond_timedwait, then __lll_lock_wait): another stack,
 *     the same call.  A recording without the program's frames leaves
 *     nothing to compare, and then any two lock waits of the thread match;
 *  3. in between, the thread only ran or was preempted: it woke nobody,
 *     blocked on nothing else and crossed no marker, so nothing it did was
 *     visible to any other thread;
 *  4. the time from P's wake-up to Q's start is shorter than P itself: the
 *     thread spent more of that stretch waiting for the lock than doing
 *     anything else.  The bound is the trace's own (each piece sets the
 *     bound for the run after it), so a 1 ms timeout and a 5 s one are
 *     judged alike, and no more CPU time is folded into a joined wait than
 *     the waiting it joins.
 *
 * A plain sleep is never joined: its wait is not lock-related, and the
 * timer that ends a nanosleep is the sleep's true end.
 *
 * The trace is never changed: the chains are an index over its events,
 * built once per trace and classifier (the lists say what a lock and a
 * timer are) and kept on the trace.
 */
#include "config.h"

#include <glib/gi18n-lib.h>
#include <string.h>

#include "ws-false-run.h"
#include "ws-time-format.h"
#include "ws-wait-readier.h"
#include "ws-wake-words.h"

struct _WsFalseRuns
{
  WsFrameClassifier *classifier;   /* owned: its address cannot be reused */
  guint              generation;   /* of the classifier's lists */
  GArray            *chains;       /* WsWaitChain, by first piece */
  GHashTable        *member;       /* event (pieces and the runs between) -> 1 + chain */
};

static GMutex cache_mutex;
static GQuark cache_quark;

static void
false_runs_free (WsFalseRuns *self)
{
  g_object_unref (self->classifier);
  g_array_unref (self->chains);
  g_hash_table_unref (self->member);
  g_free (self);
}

static inline WsTime
event_end (const WsEvent *e)
{
  return e->time + MAX (ws_event_duration (e), 0);
}

/**
 * ws_false_runs_is_timed_out_lock_wait:
 *
 * Returns: whether WAIT @wait_event is a lock wait that a timer ended
 *   (rule 1 of the file's comment)
 */
gboolean
ws_false_runs_is_timed_out_lock_wait (WsTrace           *trace,
                                      WsFrameClassifier *classifier,
                                      guint              wait_event)
{
  const WsEvent *w = ws_trace_get_event (trace, wait_event);

  if (w == NULL || w->kind != WS_EVENT_WAIT || w->peer == WS_NONE || (w->flags & WS_EVENT_FLAG_UNFINISHED))
    return FALSE;
  return ws_frame_classifier_classify_wake (classifier, trace, wait_event, NULL) == WS_WAKE_TIMER
         && ws_frame_classifier_stack_matches (classifier, WS_FRAME_CATEGORY_LOCK,
                                               ws_trace_get_stack_table (trace), w->stack);
}

/* A frame of the lock's implementation rather than of the program. */
static gboolean
is_implementation_frame (WsFrameClassifier *classifier,
                         const WsFrame     *frame)
{
  const char *module = frame->module != NULL ? frame->module : "";
  const char *base = strrchr (module, '/');

  base = base != NULL ? base + 1 : module;
  return strstr (module, "kernel") != NULL
         || (g_str_has_prefix (base, "lib") && strstr (base, ".so") != NULL)
         || frame->function == NULL || g_str_has_prefix (frame->function, "[unknown]")
         || ws_frame_classifier_match (classifier, WS_FRAME_CATEGORY_LOCK, frame->function);
}

/* Rule 2: whether waiting stacks @a and @b are the same call of the
 * program. */
static gboolean
same_call (WsStackTable      *stacks,
           WsFrameClassifier *classifier,
           WsStackId          a,
           WsStackId          b)
{
  const WsFrameId *fa = NULL, *fb = NULL;
  guint na = 0, nb = 0;

  if (a == b)
    return TRUE;
  if (a != WS_STACK_EMPTY)
    fa = ws_stack_table_get_stack (stacks, a, &na);
  if (b != WS_STACK_EMPTY)
    fb = ws_stack_table_get_stack (stacks, b, &nb);
  while (na > 0 && is_implementation_frame (classifier, ws_stack_table_get_frame (stacks, fa[na - 1])))
    na--;
  while (nb > 0 && is_implementation_frame (classifier, ws_stack_table_get_frame (stacks, fb[nb - 1])))
    nb--;
  return na == nb && (na == 0 || memcmp (fa, fb, na * sizeof (WsFrameId)) == 0);
}

/* Records the chain being built on one thread, if it joined anything. */
static void
close_chain (WsFalseRuns   *self,
             WsWaitChain   *chain,
             GArray        *members,
             const WsEvent *events)
{
  if (chain->n_pieces >= 2)
    {
      guint index = self->chains->len;

      chain->start = events[chain->first].time;
      chain->end = event_end (&events[chain->last]);
      g_array_append_val (self->chains, *chain);
      for (guint k = 0; k < members->len; k++)
        g_hash_table_insert (self->member, GUINT_TO_POINTER (g_array_index (members, guint32, k)),
                             GUINT_TO_POINTER (index + 1));
    }
  chain->n_pieces = 0;
  g_array_set_size (members, 0);
}

static void
build_thread (WsFalseRuns       *self,
              WsTrace           *trace,
              WsFrameClassifier *classifier,
              guint              thread)
{
  const WsThread *t = ws_trace_get_thread (trace, thread);
  const WsEvent *events = ws_trace_get_events (trace);
  WsStackTable *stacks = ws_trace_get_stack_table (trace);
  g_autoptr(GArray) members = g_array_new (FALSE, FALSE, sizeof (guint32));
  g_autoptr(GArray) between = g_array_new (FALSE, FALSE, sizeof (guint32));
  WsWaitChain chain = { WS_NONE, WS_NONE, 0, 0, 0 };
  gboolean open = FALSE;   /* the chain's last piece timed out: it may go on */

  for (guint k = 0; k < t->n_events; k++)
    {
      guint32 i = t->events[k];
      const WsEvent *e = &events[i];

      /* An interrupt borrows the thread it interrupted: not the thread's own. */
      if (e->kind == WS_EVENT_HW_SERVICE)
        continue;
      if (open && (e->kind == WS_EVENT_RUNNING || e->kind == WS_EVENT_PREEMPT))
        {
          g_array_append_val (between, i);
          continue;
        }
      if (open && e->kind == WS_EVENT_WAIT)
        {
          const WsEvent *p = &events[chain.last];
          WsTime woke = event_end (p);

          if (e->time >= woke && e->time - woke < MAX (ws_event_duration (p), 0)
              && ws_frame_classifier_stack_matches (classifier, WS_FRAME_CATEGORY_LOCK, stacks, e->stack)
              && same_call (stacks, classifier, p->stack, e->stack))
            {
              g_array_append_vals (members, between->data, between->len);
              g_array_append_val (members, i);
              g_array_set_size (between, 0);
              chain.last = i;
              chain.n_pieces++;
              open = ws_false_runs_is_timed_out_lock_wait (trace, classifier, i);
              if (!open)
                close_chain (self, &chain, members, events);
              continue;
            }
        }
      /* Anything else ends the chain, and a wait may start the next. */
      close_chain (self, &chain, members, events);
      g_array_set_size (between, 0);
      open = e->kind == WS_EVENT_WAIT && ws_false_runs_is_timed_out_lock_wait (trace, classifier, i);
      if (open)
        {
          chain.first = chain.last = i;
          chain.n_pieces = 1;
          g_array_append_val (members, i);
        }
    }
  close_chain (self, &chain, members, events);
}

static WsFalseRuns *
false_runs_build (WsTrace           *trace,
                  WsFrameClassifier *classifier)
{
  WsFalseRuns *self = g_new0 (WsFalseRuns, 1);

  self->classifier = g_object_ref (classifier);
  self->generation = ws_frame_classifier_get_generation (classifier);
  self->chains = g_array_new (FALSE, FALSE, sizeof (WsWaitChain));
  self->member = g_hash_table_new (g_direct_hash, g_direct_equal);
  for (guint t = 0; t < ws_trace_get_n_threads (trace); t++)
    build_thread (self, trace, classifier, t);
  return self;
}

/**
 * ws_false_runs_get:
 * @classifier: (nullable): the lists; %NULL for the defaults
 *
 * The trace's wait chains under @classifier's lists, built on first use and
 * kept on the trace (one set per classifier).  Safe from any thread.
 *
 * Returns: (transfer none): the index, valid as long as @trace
 */
const WsFalseRuns *
ws_false_runs_get (WsTrace           *trace,
                   WsFrameClassifier *classifier)
{
  GPtrArray *cache;
  WsFalseRuns *found = NULL;

  g_return_val_if_fail (WS_IS_TRACE (trace), NULL);
  if (classifier == NULL)
    classifier = ws_frame_classifier_get_default ();

  g_mutex_lock (&cache_mutex);
  if (cache_quark == 0)
    cache_quark = g_quark_from_static_string ("ws-false-runs");
  cache = g_object_get_qdata (G_OBJECT (trace), cache_quark);
  if (cache == NULL)
    {
      cache = g_ptr_array_new_with_free_func ((GDestroyNotify) false_runs_free);
      g_object_set_qdata_full (G_OBJECT (trace), cache_quark, cache, (GDestroyNotify) g_ptr_array_unref);
    }
  /* An index built before the classifier's lists changed stays until the
   * trace goes (another thread may still read it); a new one is built. */
  for (guint i = 0; i < cache->len && found == NULL; i++)
    {
      WsFalseRuns *fr = g_ptr_array_index (cache, i);

      if (fr->classifier == classifier && fr->generation == ws_frame_classifier_get_generation (classifier))
        found = fr;
    }
  if (found == NULL)
    {
      found = false_runs_build (trace, classifier);
      g_ptr_array_add (cache, found);
    }
  g_mutex_unlock (&cache_mutex);
  return found;
}

guint
ws_false_runs_get_n_chains (const WsFalseRuns *self)
{
  g_return_val_if_fail (self != NULL, 0);
  return self->chains->len;
}

const WsWaitChain *
ws_false_runs_get_chain (const WsFalseRuns *self,
                         guint              index)
{
  g_return_val_if_fail (self != NULL, NULL);
  g_return_val_if_fail (index < self->chains->len, NULL);
  return &g_array_index (self->chains, WsWaitChain, index);
}

/**
 * ws_false_runs_chain_of:
 *
 * Returns: (nullable): the chain @event belongs to — one of its pieces, or
 *   a run or preemption of the thread between two of them — or %NULL
 */
const WsWaitChain *
ws_false_runs_chain_of (const WsFalseRuns *self,
                        guint              event)
{
  guint index;

  g_return_val_if_fail (self != NULL, NULL);
  /* Most traces have no chain: no lookup for them in the analyses' loops. */
  if (self->chains->len == 0)
    return NULL;
  index = GPOINTER_TO_UINT (g_hash_table_lookup (self->member, GUINT_TO_POINTER (event)));
  return index > 0 ? &g_array_index (self->chains, WsWaitChain, index - 1) : NULL;
}

/**
 * ws_false_runs_describe:
 * @classifier: (nullable): the lists; %NULL for the defaults
 *
 * One sentence for a person about the joined wait @event is part of (the
 * timeline's label and tooltip, the details pane): how long it lasted, in
 * how many tries, and what ended it.
 *
 * Returns: (transfer full) (nullable): the sentence, or %NULL when @event
 *   is in no chain
 */
char *
ws_false_runs_describe (WsTrace           *trace,
                        WsFrameClassifier *classifier,
                        guint              event)
{
  const WsWaitChain *chain;
  g_autofree char *span = NULL;
  g_autofree char *who = NULL;

  g_return_val_if_fail (WS_IS_TRACE (trace), NULL);
  if (classifier == NULL)
    classifier = ws_frame_classifier_get_default ();
  if (event >= ws_trace_get_n_events (trace)
      || (chain = ws_false_runs_chain_of (ws_false_runs_get (trace, classifier), event)) == NULL)
    return NULL;

  span = ws_format_duration (chain->end - chain->start);
  who = ws_wait_readier_dup_sentence (classifier, trace, chain->last);
  /* Translators: a lock wait the program's own timeout cut into tries,
   * read as one wait: "one lock wait of 9.0 ms in 5 tries (each but the
   * last ended by its timeout), woken by holder (1234)" */
  return g_strdup_printf (_("one lock wait of %s in %u tries (each but the last ended by its timeout), %s"),
                          span, chain->n_pieces, who);
}
