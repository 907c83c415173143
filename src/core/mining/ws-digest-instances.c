/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * What `contrast` needs of a trace, kept in its digest: each scenario
 * instance (of the rules the trace was loaded with) and each thread span
 * of the trace's first two programs and of those asked for, with its
 * duration, its program and its wait graph reduced to what Algorithm 1
 * reads (#WsAwgInput).  The graphs are built here by the very calls a
 * contrast over the trace makes (ws_instance_set_add(),
 * ws_instance_set_add_thread_spans(), ws_wait_graph_build() with the
 * default classifier), so a contrast over digests is the same contrast,
 * as long as it applies the same scenario rules (ws_digest_check_rules()).
 */
#include "config.h"

#include <glib/gi18n-lib.h>
#include <string.h>

#include "ws-digest.h"
#include "ws-error.h"
#include "ws-fleet-classes.h"
#include "ws-instance-set.h"
#include "ws-thread-picker.h"

WsDigestInstance *
ws_digest_instance_new (const char *scenario,
                        const char *program,
                        WsTime      duration,
                        WsAwgInput *graph)
{
  WsDigestInstance *inst = g_new0 (WsDigestInstance, 1);

  inst->scenario = g_strdup (scenario);
  inst->program = g_strdup (program ? program : "");
  inst->duration = duration;
  inst->graph = graph;
  return inst;
}

void
ws_digest_instance_free (gpointer data)
{
  WsDigestInstance *inst = data;

  g_free (inst->scenario);
  g_free (inst->program);
  g_clear_pointer (&inst->graph, ws_awg_input_unref);
  g_free (inst);
}

static int
compare_names (gconstpointer a,
               gconstpointer b)
{
  return strcmp (*(const char *const *) a, *(const char *const *) b);
}

/* The name ws_instance_set_dup_default_component() gives the instance's
 * thread: its process's, else its own. */
static const char *
program_of (WsTrace *trace,
            guint    thread)
{
  const WsThread *th = ws_trace_get_thread (trace, thread);
  const WsProcess *process = th->process < ws_trace_get_n_processes (trace)
                             ? ws_trace_get_process (trace, th->process) : NULL;

  return process != NULL && process->name != NULL ? process->name : th->name != NULL ? th->name : "";
}

static gboolean
add_instances (WsDigestTrace *out,
               WsTrace       *trace,
               WsInstanceSet *set,
               WsStackDb     *importer,
               GCancellable  *cancellable,
               GError       **error)
{
  for (guint i = 0; i < ws_instance_set_get_n (set); i++)
    {
      const WsInstanceRef *ref = ws_instance_set_get (set, i);
      WsSymptom symptom = ref->span;
      g_autoptr(WsWaitGraph) graph = ws_wait_graph_build (trace, &symptom, NULL, cancellable, error);
      const char *scenario = NULL;

      if (graph == NULL)
        return FALSE;
      /* A thread span has no scenario. */
      if (ref->index != WS_NONE)
        {
          scenario = ws_trace_get_string (trace, ws_trace_get_scenario_instance (trace, ref->index)->scenario);
          scenario = scenario ? scenario : "";
        }
      g_ptr_array_add (out->instances,
                       ws_digest_instance_new (scenario, program_of (trace, ref->span.thread),
                                               ref->duration, ws_awg_input_of_wait_graph (graph, importer)));
    }
  return TRUE;
}

static void
add_span_program (WsDigestTrace *out,
                  const char    *program)
{
  if (!g_ptr_array_find_with_equal_func (out->span_programs, program, g_str_equal, NULL))
    g_ptr_array_add (out->span_programs, g_strdup (program));
}

/**
 * ws_digest_reduce_instances:
 * @table: the digest's stack table
 * @options: (nullable): the rules @trace was loaded with and the programs
 *   whose spans to keep besides the picker's two
 * @with_scenarios: keep the scenario instances too, else only the thread
 *   spans (@out is then spans-only)
 *
 * Records @trace's program of interest and its contrast instances in @out.
 */
gboolean
ws_digest_reduce_instances (WsDigestTrace         *out,
                            WsTrace               *trace,
                            WsStackTable          *table,
                            const WsDigestOptions *options,
                            gboolean               with_scenarios,
                            GCancellable          *cancellable,
                            GError               **error)
{
  g_autoptr(WsStackDb) importer = ws_stack_db_new (table);
  g_autoptr(WsInstanceSet) scenarios = ws_instance_set_new ();
  g_autoptr(WsInstanceSet) spans = ws_instance_set_new ();
  g_autoptr(WsThreadPick) pick = ws_thread_picker_pick (trace, NULL, 1);
  g_autoptr(GHashTable) seen = g_hash_table_new (g_str_hash, g_str_equal);

  out->has_instances = TRUE;
  for (guint t = 0; t < ws_trace_get_n_threads (trace); t++)
    {
      const WsThread *th = ws_trace_get_thread (trace, t);
      const WsProcess *process = th->process < ws_trace_get_n_processes (trace)
                                 ? ws_trace_get_process (trace, th->process) : NULL;

      if (th->n_events > 0 && process != NULL && process->name != NULL && g_hash_table_add (seen, (gpointer) process->name))
        g_ptr_array_add (out->programs, g_strdup (process->name));
    }
  g_ptr_array_sort (out->programs, compare_names);
  out->spans_only = !with_scenarios;
  for (guint i = 0; with_scenarios && i < ws_trace_get_n_scenario_instances (trace); i++)
    ws_instance_set_add (scenarios, trace, i);
  /* The fleet's program is the one most traces pick; where a trace picks
   * another, it is most likely that trace's runner-up. */
  if (pick != NULL && pick->program != NULL)
    {
      out->program = g_strdup (pick->program);
      add_span_program (out, pick->program);
      if (pick->runner_up != NULL)
        add_span_program (out, pick->runner_up);
    }
  /* A program the analyst named: a fleet about it may rank it lower in
   * this trace.  Its spans are kept whatever the picker thinks of it. */
  for (guint i = 0; options != NULL && options->programs != NULL && options->programs[i] != NULL; i++)
    add_span_program (out, options->programs[i]);
  for (guint i = 0; i < out->span_programs->len; i++)
    ws_instance_set_add_thread_spans (spans, trace, g_ptr_array_index (out->span_programs, i));
  for (guint i = 0; options != NULL && options->scenario_rules != NULL && options->scenario_rules[i] != NULL; i++)
    g_ptr_array_add (out->scenario_rules, g_strdup (options->scenario_rules[i]));
  return add_instances (out, trace, scenarios, importer, cancellable, error)
         && add_instances (out, trace, spans, importer, cancellable, error);
}

void
ws_digest_copy_instances (WsDigestTrace       *to,
                          const WsDigestTrace *from,
                          WsStackDb           *importer,
                          WsStackTable        *source)
{
  to->has_instances = from->has_instances;
  to->spans_only = from->spans_only;
  to->program = g_strdup (from->program);
  for (guint i = 0; i < from->span_programs->len; i++)
    g_ptr_array_add (to->span_programs, g_strdup (g_ptr_array_index (from->span_programs, i)));
  for (guint i = 0; i < from->programs->len; i++)
    g_ptr_array_add (to->programs, g_strdup (g_ptr_array_index (from->programs, i)));
  for (guint i = 0; i < from->scenario_rules->len; i++)
    g_ptr_array_add (to->scenario_rules, g_strdup (g_ptr_array_index (from->scenario_rules, i)));
  for (guint i = 0; i < from->instances->len; i++)
    {
      const WsDigestInstance *inst = g_ptr_array_index (from->instances, i);

      g_ptr_array_add (to->instances,
                       ws_digest_instance_new (inst->scenario, inst->program, inst->duration,
                                               ws_awg_input_import (inst->graph, importer, source)));
    }
}

void
ws_digest_remap_instances (WsDigestTrace   *trace,
                           const WsStackId *map)
{
  for (guint i = 0; i < trace->instances->len; i++)
    ws_awg_input_remap_stacks (((WsDigestInstance *) g_ptr_array_index (trace->instances, i))->graph, map);
}

/* ------------------------------------------------------------------ */
/* Contrast over a digest                                               */

/* A trace of @self whose digest predates contrast over digests. */
static gboolean
check_recorded (const WsDigestTrace *t,
                GError             **error)
{
  if (t->has_instances)
    return TRUE;
  g_set_error (error, WS_ERROR, WS_ERROR_INVALID,
               /* Translators: %s is a trace's path */
               _("%s: its digest holds no contrast instances (it was written by an older `waitscope-cli digest`): "
                 "digest the trace again"), t->path);
  return FALSE;
}

/**
 * ws_digest_check_instances:
 *
 * Returns: %FALSE with a %WS_ERROR_INVALID error naming the first trace
 *   whose digest holds no contrast instances
 */
gboolean
ws_digest_check_instances (WsDigest  *self,
                           GError   **error)
{
  for (guint i = 0; i < ws_digest_get_n_traces (self); i++)
    if (!check_recorded (ws_digest_get_trace (self, i), error))
      return FALSE;
  return TRUE;
}

static gboolean
same_rules (const GPtrArray    *kept,
            const char * const *rules)
{
  guint n = rules != NULL ? g_strv_length ((char **) rules) : 0;

  if (kept->len != n)
    return FALSE;
  for (guint i = 0; i < n; i++)
    if (!g_str_equal (g_ptr_array_index (kept, i), rules[i]))
      return FALSE;
  return TRUE;
}

/* The rules as the user reads them: "A=b,c; D=e,f", or the built-in ones. */
static char *
rules_text (const char * const *rules,
            guint               n)
{
  GString *text;

  if (n == 0)
    return g_strdup (_("the built-in scenario rules"));
  /* Translators: followed by a list of rules “NAME=BEGIN,END” */
  text = g_string_new (_("the scenario rules"));
  for (guint i = 0; i < n; i++)
    g_string_append_printf (text, "%s“%s”", i > 0 ? ", " : " ", rules[i]);
  return g_string_free (text, FALSE);
}

/**
 * ws_digest_check_rules:
 * @rules: (nullable) (array zero-terminated=1): the text of the scenario
 *   rules the contrast applies (#WsDigestOptions); %NULL or empty: the
 *   built-in rules
 *
 * A digest's scenario instances are the ones the rules it was made with
 * found: a contrast over it is the contrast over its trace only when it
 * applies the same rules.
 *
 * Returns: %FALSE with a %WS_ERROR_INVALID error naming the first trace
 *   whose digest was made with other rules
 */
gboolean
ws_digest_check_rules (WsDigest            *self,
                       const char * const  *rules,
                       GError             **error)
{
  for (guint i = 0; i < ws_digest_get_n_traces (self); i++)
    {
      const WsDigestTrace *t = ws_digest_get_trace (self, i);
      g_autofree char *made = NULL, *asked = NULL;

      if (same_rules (t->scenario_rules, rules))
        continue;
      made = rules_text ((const char * const *) t->scenario_rules->pdata, t->scenario_rules->len);
      asked = rules_text (rules, rules != NULL ? g_strv_length ((char **) rules) : 0);
      g_set_error (error, WS_ERROR, WS_ERROR_INVALID,
                   /* Translators: a trace's path, the rules its digest was made with, the rules given now */
                   _("%s: its digest was made with %s, not %s: digest the trace again with the same "
                     "--scenario and --scenario-file, or contrast the trace"), t->path, made, asked);
      return FALSE;
    }
  return TRUE;
}

static gboolean
same_names (const GPtrArray *a,
            const GPtrArray *b)
{
  if (a->len != b->len)
    return FALSE;
  for (guint i = 0; i < a->len; i++)
    if (!g_str_equal (g_ptr_array_index (a, i), g_ptr_array_index (b, i)))
      return FALSE;
  return TRUE;
}

static char *
programs_text (const GPtrArray *programs)
{
  GString *text;

  if (programs->len == 0)
    return g_strdup (_("no program"));
  /* Translators: followed by a list of program names */
  text = g_string_new (_("the programs"));
  for (guint i = 0; i < programs->len; i++)
    g_string_append_printf (text, "%s“%s”", i > 0 ? ", " : " ", (const char *) g_ptr_array_index (programs, i));
  return g_string_free (text, FALSE);
}

/**
 * ws_digest_check_made_alike:
 * @a: a trace of a digest read from @a_file
 * @b: a trace of a digest read from @b_file with @a's content hash
 *
 * Two digests of one trace (the same content) must have been made for the
 * same things to be merged: one of them is kept, and a merge that kept
 * whichever came first would hold instances found by other scenario
 * rules, or the thread spans of other programs, than the rest of the
 * fleet.  The programs are compared where both digests kept instances
 * (a digest written before contrast read digests has neither).
 *
 * Returns: %FALSE with a %WS_ERROR_INVALID error naming both files, the
 *   trace and what differs
 */
gboolean
ws_digest_check_made_alike (const WsDigestTrace  *a,
                            const char           *a_file,
                            const WsDigestTrace  *b,
                            const char           *b_file,
                            GError              **error)
{
  g_autofree char *made_a = NULL, *made_b = NULL;

  g_return_val_if_fail (g_str_equal (a->content_hash, b->content_hash), FALSE);

  if (!same_names (a->scenario_rules, b->scenario_rules))
    {
      made_a = rules_text ((const char * const *) a->scenario_rules->pdata, a->scenario_rules->len);
      made_b = rules_text ((const char * const *) b->scenario_rules->pdata, b->scenario_rules->len);
    }
  else if (a->has_instances && b->has_instances && !same_names (a->span_programs, b->span_programs))
    {
      made_a = programs_text (a->span_programs);
      made_b = programs_text (b->span_programs);
    }
  else
    return TRUE;
  g_set_error (error, WS_ERROR, WS_ERROR_INVALID,
               /* Translators: two digest files, the trace's path, its content hash (the first 12 digits),
                * then what each digest was made for */
               _("%s and %s hold the same trace (%s, content %.12s…) digested for different things: %s in the "
                 "first, %s in the second; digest the trace again with the same --scenario, --scenario-file "
                 "and --program as the rest to merge them"),
               a_file, b_file, a->path, a->content_hash, made_a, made_b);
  return FALSE;
}

/* ws_instance_set_list_scenarios() over a digest's traces. */
GStrv
ws_digest_list_scenarios (WsDigest *self)
{
  g_autoptr(GHashTable) seen = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr(GPtrArray) names = g_ptr_array_new ();

  for (guint t = 0; t < ws_digest_get_n_traces (self); t++)
    {
      const WsDigestTrace *trace = ws_digest_get_trace (self, t);

      for (guint i = 0; i < trace->instances->len; i++)
        {
          const char *name = ((WsDigestInstance *) g_ptr_array_index (trace->instances, i))->scenario;

          if (name != NULL && g_hash_table_add (seen, (gpointer) name))
            g_ptr_array_add (names, g_strdup (name));
        }
    }
  g_ptr_array_sort (names, compare_names);
  g_ptr_array_add (names, NULL);
  return (GStrv) g_ptr_array_free (g_steal_pointer (&names), FALSE);
}

/* ws_trace_classes_program_of_interest() from the votes the digest keeps:
 * the program picked in the most traces, the first on a tie. */
char *
ws_digest_program_of_interest (WsDigest *self)
{
  g_autoptr(GHashTable) votes = g_hash_table_new (g_str_hash, g_str_equal);
  const char *best = NULL;
  guint best_votes = 0;

  for (guint t = 0; t < ws_digest_get_n_traces (self); t++)
    {
      const char *program = ws_digest_get_trace (self, t)->program;

      if (program != NULL)
        g_hash_table_insert (votes, (gpointer) program,
                             GUINT_TO_POINTER (GPOINTER_TO_UINT (g_hash_table_lookup (votes, program)) + 1));
    }
  /* In trace order, the first to reach the most votes wins, as over traces. */
  for (guint t = 0; t < ws_digest_get_n_traces (self); t++)
    {
      const char *program = ws_digest_get_trace (self, t)->program;
      guint n = program ? GPOINTER_TO_UINT (g_hash_table_lookup (votes, program)) : 0;

      if (n > best_votes)
        {
          best = program;
          best_votes = n;
        }
    }
  return g_strdup (best);
}

/**
 * ws_digest_add_instances:
 * @trace: a trace index of @self
 * @scenario: (nullable): the scenario whose instances to add; %NULL: the
 *   thread spans of @program
 *
 * What ws_instance_set_add_trace() (or ws_instance_set_add_thread_spans())
 * adds for the trace, from its digest.
 *
 * Returns: %FALSE with a %WS_ERROR_INVALID error when the digest cannot
 *   say: it holds no instances, or the thread spans of another program
 */
gboolean
ws_digest_add_instances (WsDigest      *self,
                         guint          trace,
                         const char    *scenario,
                         const char    *program,
                         WsInstanceSet *set,
                         GError       **error)
{
  const WsDigestTrace *t = ws_digest_get_trace (self, trace);

  if (!check_recorded (t, error))
    return FALSE;
  if (scenario != NULL && t->spans_only)
    {
      g_set_error (error, WS_ERROR, WS_ERROR_INVALID,
                   /* Translators: a trace's path */
                   _("%s: this fleet kept the traces' thread spans, not their scenario instances (they would hold "
                     "every instance's wait graph): contrast it by trace class, or contrast a scenario over the "
                     "traces' digests (“waitscope-cli digest”, then open their merge)"), t->path);
      return FALSE;
    }
  if (scenario == NULL && !g_ptr_array_find_with_equal_func (t->span_programs, program, g_str_equal, NULL))
    {
      /* A program with no thread in the trace has no span: the digest
       * knows that.  Otherwise its threads were not kept, and a contrast
       * over the digest would not be the contrast over the trace. */
      if (!g_ptr_array_find_with_equal_func (t->programs, program, g_str_equal, NULL))
        return TRUE;
      g_set_error (error, WS_ERROR, WS_ERROR_INVALID,
                   /* Translators: a trace's path, the program these traces are about (twice) */
                   _("%s: its digest does not keep the threads of “%s”, the program these traces are about "
                     "(it keeps those of the programs it ranked first and second, and of each `digest --program`): "
                     "digest the trace again with --program “%s”, contrast the traces, or give a scenario"),
                   t->path, program, program);
      return FALSE;
    }
  for (guint i = 0; i < t->instances->len; i++)
    {
      const WsDigestInstance *inst = g_ptr_array_index (t->instances, i);

      if (scenario != NULL ? g_strcmp0 (inst->scenario, scenario) == 0
                           : inst->scenario == NULL && g_str_equal (inst->program, program))
        ws_instance_set_add_digested (set, inst->graph, ws_digest_get_stack_table (self), inst->duration,
                                      inst->program);
    }
  return TRUE;
}

static gboolean
add_digest_trace (WsInstanceSet *set,
                  guint          index,
                  const char    *scenario,
                  const char    *program,
                  gpointer       data,
                  GError       **error)
{
  return ws_digest_add_instances (data, index, scenario, program, set, error);
}

/**
 * ws_digest_fleet_classes_build:
 * @classes: one #WsRunClass per trace of @self
 *
 * ws_fleet_classes_build() over a digest's traces.
 */
gboolean
ws_digest_fleet_classes_build (WsFleetClasses    *out,
                               WsDigest          *self,
                               const WsRunClass  *classes,
                               GArray            *entries,
                               const char        *scenario,
                               GError           **error)
{
  if (!ws_digest_check_instances (self, error))
    return FALSE;
  return ws_fleet_classes_build_with (out, ws_digest_get_n_traces (self), classes, entries, scenario,
                                      scenario == NULL ? ws_digest_program_of_interest (self) : NULL,
                                      add_digest_trace, self, error);
}
