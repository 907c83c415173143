/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <glib/gi18n-lib.h>
#include <string.h>

#include "ws-error.h"
#include "ws-fleet-classes.h"

/* The instances of the traces of class @klass (every trace with NONE). */
static WsInstanceSet *
class_instances (guint              n_traces,
                 const WsRunClass  *classes,
                 WsRunClass         klass,
                 const char        *scenario,
                 const char        *program,
                 WsFleetAddFunc     add,
                 gpointer           data,
                 GError           **error)
{
  g_autoptr(WsInstanceSet) set = ws_instance_set_new ();

  for (guint i = 0; i < n_traces; i++)
    {
      if (klass != WS_RUN_CLASS_NONE && classes[i] != klass)
        continue;
      if (!add (set, i, scenario, program, data, error))
        return NULL;
    }
  return g_steal_pointer (&set);
}

/**
 * ws_fleet_classes_build_with:
 * @n_traces: how many traces
 * @classes: one #WsRunClass per trace; %WS_RUN_CLASS_NONE leaves it out
 * @entries: (nullable) (element-type WsRunClassEntry): the classes file's
 *   lines, whose latencies, when given, set the thresholds of a contrast
 *   of thread spans
 * @scenario: (nullable): the scenario whose instances to contrast; %NULL:
 *   each thread of @program
 * @program: (transfer full) (nullable): the program of interest of the
 *   traces (needed without @scenario)
 * @add: adds trace i's instances to a set
 *
 * The classes over any kind of trace: loaded traces, or a digest's.
 *
 * Returns: %FALSE with a %WS_ERROR_INVALID error when a class is empty
 *   or, without a scenario, no thread of any trace waited for another;
 *   or with @add's error
 */
gboolean
ws_fleet_classes_build_with (WsFleetClasses    *out,
                             guint              n_traces,
                             const WsRunClass  *classes,
                             GArray            *entries,
                             const char        *scenario,
                             char              *program,
                             WsFleetAddFunc     add,
                             gpointer           data,
                             GError           **error)
{
  guint n_fast = 0, n_slow = 0;

  g_return_val_if_fail (out != NULL && (classes != NULL || n_traces == 0) && add != NULL, FALSE);

  memset (out, 0, sizeof *out);
  out->program = program;
  for (guint i = 0; i < n_traces; i++)
    {
      n_fast += classes[i] == WS_RUN_CLASS_FAST;
      n_slow += classes[i] == WS_RUN_CLASS_SLOW;
    }
  if (n_fast == 0 || n_slow == 0)
    {
      g_set_error (error, WS_ERROR, WS_ERROR_INVALID, "%s",
                   _("a contrast of traces needs at least one slow and one fast trace"));
      return FALSE;
    }
  if (scenario == NULL && out->program == NULL)
    {
      g_set_error (error, WS_ERROR, WS_ERROR_INVALID, "%s",
                   _("no thread of these traces waited for another: nothing to contrast"));
      return FALSE;
    }

  /* Thread spans last about as long as their recording: their durations
   * say nothing, the traces' latencies (if any) do. */
  if (scenario == NULL)
    ws_trace_classes_span_thresholds (entries, &out->t_fast, &out->t_slow);
  return (out->fast = class_instances (n_traces, classes, WS_RUN_CLASS_FAST, scenario, out->program,
                                       add, data, error)) != NULL
         && (out->slow = class_instances (n_traces, classes, WS_RUN_CLASS_SLOW, scenario, out->program,
                                          add, data, error)) != NULL
         && (out->all = class_instances (n_traces, classes, WS_RUN_CLASS_NONE, scenario, out->program,
                                         add, data, error)) != NULL;
}

static gboolean
add_trace (WsInstanceSet *set,
           guint          index,
           const char    *scenario,
           const char    *program,
           gpointer       data,
           GError       **error)
{
  WsTrace *trace = g_ptr_array_index ((GPtrArray *) data, index);

  if (scenario != NULL)
    ws_instance_set_add_trace (set, trace, scenario);
  else
    ws_instance_set_add_thread_spans (set, trace, program);
  return TRUE;
}

/**
 * ws_fleet_classes_build:
 * @traces: (element-type WsTrace): the traces
 *
 * ws_fleet_classes_build_with() over loaded traces.
 */
gboolean
ws_fleet_classes_build (WsFleetClasses    *out,
                        GPtrArray         *traces,
                        const WsRunClass  *classes,
                        GArray            *entries,
                        const char        *scenario,
                        GError           **error)
{
  gboolean both = FALSE;

  g_return_val_if_fail (traces != NULL && (classes != NULL || traces->len == 0), FALSE);
  for (guint i = 0, fast = 0, slow = 0; i < traces->len; i++)
    {
      fast += classes[i] == WS_RUN_CLASS_FAST;
      slow += classes[i] == WS_RUN_CLASS_SLOW;
      both = fast > 0 && slow > 0;
    }
  /* The threads are asked for their program only when a contrast can run. */
  return ws_fleet_classes_build_with (out, traces->len, classes, entries, scenario,
                                      scenario == NULL && both ? ws_trace_classes_program_of_interest (traces) : NULL,
                                      add_trace, traces, error);
}

void
ws_fleet_classes_clear (WsFleetClasses *classes)
{
  g_clear_object (&classes->fast);
  g_clear_object (&classes->slow);
  g_clear_object (&classes->all);
  g_clear_pointer (&classes->program, g_free);
}
