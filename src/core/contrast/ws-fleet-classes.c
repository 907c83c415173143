/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <glib/gi18n-lib.h>
#include <string.h>

#include "ws-error.h"
#include "ws-fleet-classes.h"

/* The instances of the traces of class @klass (every trace with NONE). */
static WsInstanceSet *
class_instances (GPtrArray        *traces,
                 const WsRunClass *classes,
                 WsRunClass        klass,
                 const char       *scenario,
                 const char       *program)
{
  WsInstanceSet *set = ws_instance_set_new ();

  for (guint i = 0; i < traces->len; i++)
    {
      WsTrace *trace = g_ptr_array_index (traces, i);

      if (klass != WS_RUN_CLASS_NONE && classes[i] != klass)
        continue;
      if (scenario != NULL)
        ws_instance_set_add_trace (set, trace, scenario);
      else
        ws_instance_set_add_thread_spans (set, trace, program);
    }
  return set;
}

/**
 * ws_fleet_classes_build:
 * @traces: (element-type WsTrace): the traces
 * @classes: one #WsRunClass per trace; %WS_RUN_CLASS_NONE leaves it out
 * @entries: (nullable) (element-type WsRunClassEntry): the classes file's
 *   lines, whose latencies, when given, set the thresholds of a contrast
 *   of thread spans
 * @scenario: (nullable): the scenario whose instances to contrast; %NULL:
 *   each thread of the program of interest
 *
 * Returns: %FALSE with a %WS_ERROR_INVALID error when a class is empty
 *   or, without a scenario, no thread of any trace waited for another
 */
gboolean
ws_fleet_classes_build (WsFleetClasses    *out,
                        GPtrArray         *traces,
                        const WsRunClass  *classes,
                        GArray            *entries,
                        const char        *scenario,
                        GError           **error)
{
  guint n_fast = 0, n_slow = 0;

  g_return_val_if_fail (out != NULL && traces != NULL && classes != NULL, FALSE);

  memset (out, 0, sizeof *out);
  for (guint i = 0; i < traces->len; i++)
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
  if (scenario == NULL && (out->program = ws_trace_classes_program_of_interest (traces)) == NULL)
    {
      g_set_error (error, WS_ERROR, WS_ERROR_INVALID, "%s",
                   _("no thread of these traces waited for another: nothing to contrast"));
      return FALSE;
    }

  /* Thread spans last about as long as their recording: their durations
   * say nothing, the traces' latencies (if any) do. */
  if (scenario == NULL)
    ws_trace_classes_span_thresholds (entries, &out->t_fast, &out->t_slow);
  out->fast = class_instances (traces, classes, WS_RUN_CLASS_FAST, scenario, out->program);
  out->slow = class_instances (traces, classes, WS_RUN_CLASS_SLOW, scenario, out->program);
  out->all = class_instances (traces, classes, WS_RUN_CLASS_NONE, scenario, out->program);
  return TRUE;
}

void
ws_fleet_classes_clear (WsFleetClasses *classes)
{
  g_clear_object (&classes->fast);
  g_clear_object (&classes->slow);
  g_clear_object (&classes->all);
  g_clear_pointer (&classes->program, g_free);
}
