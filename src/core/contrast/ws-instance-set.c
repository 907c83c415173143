/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <string.h>

#include "ws-instance-set.h"

struct _WsInstanceSet
{
  GObject     parent_instance;

  GArray     *refs;      /* WsInstanceRef */
  GPtrArray  *traces;    /* owned references (traces, digests' stack tables) */
  GPtrArray  *inputs;    /* digest instances' WsAwgInput, owned */
  GStringChunk *names;   /* digest instances' program names */
  GArray     *sorted;    /* WsTime, built on demand */
};

G_DEFINE_FINAL_TYPE (WsInstanceSet, ws_instance_set, G_TYPE_OBJECT)

static void
ws_instance_set_finalize (GObject *object)
{
  WsInstanceSet *self = WS_INSTANCE_SET (object);

  g_array_unref (self->refs);
  g_ptr_array_unref (self->traces);
  g_ptr_array_unref (self->inputs);
  g_string_chunk_free (self->names);
  g_clear_pointer (&self->sorted, g_array_unref);

  G_OBJECT_CLASS (ws_instance_set_parent_class)->finalize (object);
}

static void
ws_instance_set_class_init (WsInstanceSetClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = ws_instance_set_finalize;
}

static void
ws_instance_set_init (WsInstanceSet *self)
{
  self->refs = g_array_new (FALSE, FALSE, sizeof (WsInstanceRef));
  self->traces = g_ptr_array_new_with_free_func (g_object_unref);
  self->inputs = g_ptr_array_new_with_free_func ((GDestroyNotify) ws_awg_input_unref);
  self->names = g_string_chunk_new (256);
}

WsInstanceSet *
ws_instance_set_new (void)
{
  return g_object_new (WS_TYPE_INSTANCE_SET, NULL);
}

static void
hold_trace (WsInstanceSet *self,
            gpointer       trace)
{
  if (self->traces->len == 0 || g_ptr_array_index (self->traces, self->traces->len - 1) != trace)
    if (!g_ptr_array_find (self->traces, trace, NULL))
      g_ptr_array_add (self->traces, g_object_ref (trace));
}

/* Appends @ref, holding what it points to. */
static void
append_ref (WsInstanceSet       *self,
            const WsInstanceRef *ref)
{
  WsInstanceRef copy = *ref;

  if (ref->input != NULL)
    {
      hold_trace (self, ref->stacks);
      g_ptr_array_add (self->inputs, ws_awg_input_ref (ref->input));
      copy.program = g_string_chunk_insert_const (self->names, ref->program ? ref->program : "");
    }
  else
    hold_trace (self, ref->trace);
  g_array_append_val (self->refs, copy);
  g_clear_pointer (&self->sorted, g_array_unref);
}

void
ws_instance_set_add_digested (WsInstanceSet *self,
                              WsAwgInput    *input,
                              WsStackTable  *stacks,
                              WsTime         duration,
                              const char    *program)
{
  WsInstanceRef ref = { 0 };

  g_return_if_fail (WS_IS_INSTANCE_SET (self));
  g_return_if_fail (input != NULL && WS_IS_STACK_TABLE (stacks));

  ref.index = WS_NONE;
  ref.duration = duration;
  ref.span = (WsSymptom) { WS_NONE, 0, duration };
  ref.input = input;
  ref.stacks = stacks;
  ref.program = program;
  append_ref (self, &ref);
}

void
ws_instance_set_add (WsInstanceSet *self,
                     WsTrace       *trace,
                     guint          index)
{
  const WsScenarioInstance *inst;
  WsInstanceRef ref = { 0 };

  g_return_if_fail (WS_IS_INSTANCE_SET (self));
  g_return_if_fail (WS_IS_TRACE (trace));
  g_return_if_fail (index < ws_trace_get_n_scenario_instances (trace));

  inst = ws_trace_get_scenario_instance (trace, index);
  ref.trace = trace;
  ref.index = index;
  ref.duration = inst->t1 - inst->t0;
  ref.span = (WsSymptom) { inst->thread, inst->t0, inst->t1 };
  append_ref (self, &ref);
}

/**
 * ws_instance_set_add_span:
 *
 * Adds an instance that is no scenario instance: @thread of @trace over
 * [@t0, @t1] (its index is %WS_NONE).
 */
void
ws_instance_set_add_span (WsInstanceSet *self,
                          WsTrace       *trace,
                          guint          thread,
                          WsTime         t0,
                          WsTime         t1)
{
  WsInstanceRef ref = { 0 };

  g_return_if_fail (WS_IS_INSTANCE_SET (self));
  g_return_if_fail (WS_IS_TRACE (trace));
  g_return_if_fail (thread < ws_trace_get_n_threads (trace));

  ref.trace = trace;
  ref.index = WS_NONE;
  ref.duration = MAX (t1 - t0, 0);
  ref.span = (WsSymptom) { thread, t0, t1 };
  append_ref (self, &ref);
}

/**
 * ws_instance_set_add_thread_spans:
 * @program: a process name
 *
 * For traces without scenario markers: each thread of a process named
 * @program is an instance, from its first event to the end of its last
 * (the thread's whole life in the recording, so a whole trace of a
 * service is its threads' request loops).
 *
 * Returns: how many were added
 */
guint
ws_instance_set_add_thread_spans (WsInstanceSet *self,
                                  WsTrace       *trace,
                                  const char    *program)
{
  guint added = 0;

  g_return_val_if_fail (WS_IS_INSTANCE_SET (self), 0);
  g_return_val_if_fail (WS_IS_TRACE (trace), 0);
  g_return_val_if_fail (program != NULL, 0);

  for (guint t = 0; t < ws_trace_get_n_threads (trace); t++)
    {
      const WsThread *th = ws_trace_get_thread (trace, t);
      const WsProcess *process = th->process < ws_trace_get_n_processes (trace)
                                 ? ws_trace_get_process (trace, th->process) : NULL;
      const WsEvent *first, *last;

      if (th->n_events == 0 || process == NULL || g_strcmp0 (process->name, program) != 0)
        continue;
      first = ws_trace_get_event (trace, th->events[0]);
      last = ws_trace_get_event (trace, th->events[th->n_events - 1]);
      ws_instance_set_add_span (self, trace, t, first->time, last->time + MAX (ws_event_duration (last), 0));
      added++;
    }
  return added;
}

char *
ws_instance_set_dup_default_component (WsInstanceSet *self)
{
  guint longest;
  const WsInstanceRef *ref;
  const WsThread *th;
  const WsProcess *process;

  g_return_val_if_fail (WS_IS_INSTANCE_SET (self), NULL);
  if ((longest = ws_instance_set_get_longest (self)) == WS_NONE)
    return NULL;
  ref = ws_instance_set_get (self, longest);
  if (ref->trace == NULL)
    return g_regex_escape_string (ref->program, -1);
  th = ws_trace_get_thread (ref->trace, ref->span.thread);
  process = th->process < ws_trace_get_n_processes (ref->trace) ? ws_trace_get_process (ref->trace, th->process) : NULL;
  return g_regex_escape_string (process != NULL && process->name != NULL ? process->name
                                : th->name != NULL ? th->name : "", -1);
}

guint
ws_instance_set_add_trace (WsInstanceSet *self,
                           WsTrace       *trace,
                           const char    *scenario)
{
  guint32 id;
  guint added = 0;

  g_return_val_if_fail (WS_IS_INSTANCE_SET (self), 0);
  g_return_val_if_fail (WS_IS_TRACE (trace), 0);
  g_return_val_if_fail (scenario != NULL, 0);

  id = ws_trace_lookup_string (trace, scenario);
  if (id == WS_NONE)
    return 0;
  for (guint i = 0; i < ws_trace_get_n_scenario_instances (trace); i++)
    if (ws_trace_get_scenario_instance (trace, i)->scenario == id)
      {
        ws_instance_set_add (self, trace, i);
        added++;
      }
  return added;
}

WsInstanceSet *
ws_instance_set_filter (WsInstanceSet *self,
                        WsTime         at_least,
                        WsTime         at_most)
{
  WsInstanceSet *out;

  g_return_val_if_fail (WS_IS_INSTANCE_SET (self), NULL);

  out = ws_instance_set_new ();
  for (guint i = 0; i < self->refs->len; i++)
    {
      const WsInstanceRef *r = &g_array_index (self->refs, WsInstanceRef, i);

      if ((at_least < 0 || r->duration >= at_least) && (at_most < 0 || r->duration <= at_most))
        append_ref (out, r);
    }
  return out;
}

guint
ws_instance_set_get_n (WsInstanceSet *self)
{
  g_return_val_if_fail (WS_IS_INSTANCE_SET (self), 0);
  return self->refs->len;
}

const WsInstanceRef *
ws_instance_set_get (WsInstanceSet *self,
                     guint          i)
{
  g_return_val_if_fail (WS_IS_INSTANCE_SET (self), NULL);
  g_return_val_if_fail (i < self->refs->len, NULL);
  return &g_array_index (self->refs, WsInstanceRef, i);
}

static int
compare_time (gconstpointer a,
              gconstpointer b)
{
  WsTime ta = *(const WsTime *) a, tb = *(const WsTime *) b;
  return ta < tb ? -1 : ta > tb;
}

const WsTime *
ws_instance_set_get_sorted_durations (WsInstanceSet *self)
{
  g_return_val_if_fail (WS_IS_INSTANCE_SET (self), NULL);

  if (self->sorted == NULL)
    {
      self->sorted = g_array_sized_new (FALSE, FALSE, sizeof (WsTime), self->refs->len);
      for (guint i = 0; i < self->refs->len; i++)
        g_array_append_val (self->sorted, g_array_index (self->refs, WsInstanceRef, i).duration);
      g_array_sort (self->sorted, compare_time);
    }
  return (const WsTime *) (gconstpointer) self->sorted->data;
}

/* Nearest-rank percentile; 0 for an empty set. */
WsTime
ws_instance_set_percentile (WsInstanceSet *self,
                            double         fraction)
{
  const WsTime *sorted;
  guint n, rank;

  g_return_val_if_fail (WS_IS_INSTANCE_SET (self), 0);
  n = self->refs->len;
  if (n == 0)
    return 0;
  sorted = ws_instance_set_get_sorted_durations (self);
  rank = (guint) CLAMP (fraction * n + 0.999999, 1, n);
  return sorted[rank - 1];
}

guint
ws_instance_set_get_longest (WsInstanceSet *self)
{
  guint best = WS_NONE;

  g_return_val_if_fail (WS_IS_INSTANCE_SET (self), WS_NONE);
  for (guint i = 0; i < self->refs->len; i++)
    if (best == WS_NONE
        || g_array_index (self->refs, WsInstanceRef, i).duration > g_array_index (self->refs, WsInstanceRef, best).duration)
      best = i;
  return best;
}

static int
compare_names (gconstpointer a,
               gconstpointer b)
{
  return g_strcmp0 (*(const char * const *) a, *(const char * const *) b);
}

GStrv
ws_instance_set_list_scenarios (GPtrArray *traces)
{
  g_autoptr(GHashTable) seen = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr(GPtrArray) names = g_ptr_array_new ();

  for (guint t = 0; traces != NULL && t < traces->len; t++)
    {
      WsTrace *trace = g_ptr_array_index (traces, t);

      for (guint i = 0; i < ws_trace_get_n_scenario_instances (trace); i++)
        {
          const char *name = ws_trace_get_string (trace, ws_trace_get_scenario_instance (trace, i)->scenario);

          if (name != NULL && g_hash_table_add (seen, (gpointer) name))
            g_ptr_array_add (names, g_strdup (name));
        }
    }
  g_ptr_array_sort (names, compare_names);
  g_ptr_array_add (names, NULL);
  return (GStrv) g_ptr_array_free (g_steal_pointer (&names), FALSE);
}
