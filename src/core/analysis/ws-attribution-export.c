/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * `why`'s JSON: the attribution's causes, top cause first, and which
 * program was explained when no delay was chosen.  One field a line, in
 * the order docs/json-schemas.md lists them.
 */
#include "config.h"

#include "ws-attribution-export.h"
#include "ws-block-requests.h"
#include "ws-cause-ended.h"
#include "ws-json-fields.h"
#include "ws-thread-picker.h"

static const char *
cause_kind_name (WsCauseKind kind)
{
  static const char * const names[WS_N_CAUSE_KINDS] = { "running", "ready", "blocked", "no-data" };
  return names[kind];
}

static const char *
pick_how_name (const WsThreadPick *pick)
{
  return pick->subject == WS_PICK_RECORDED ? "recorded" : pick->subject == WS_PICK_CHOSEN ? "chosen" : "ranked";
}

static void
add_cause_thread (JsonBuilder         *b,
                  const WsCauseThread *t)
{
  const WsThread *th = ws_trace_get_thread (t->trace, t->thread);

  json_builder_begin_object (b);
  ws_json_field_int (b, "tid", th->tid);
  ws_json_field_string (b, "name", th->name ? th->name : "");
  ws_json_field_string (b, "trace", ws_trace_get_path (t->trace));
  ws_json_field_int (b, "time", t->time);
  json_builder_end_object (b);
}

/* The step behind a cause: who had the CPUs, who else was in the disk's
 * queue (uninterruptible) meanwhile. */
static void
add_behind_thread (JsonBuilder          *b,
                   const WsCause        *c,
                   const WsBehindThread *t)
{
  static const char *const from[] = { "on-cpu", "uninterruptible-sleep", "block-requests" };
  const WsThread *th = ws_trace_get_thread (t->trace, t->thread);

  json_builder_begin_object (b);
  ws_json_field_string (b, "what", t->what == WS_BEHIND_CPU ? "cpu" : "disk");
  ws_json_field_string (b, "from", from[t->what]);
  if (t->what == WS_BEHIND_REQUESTS)
    {
      g_autofree char *device = ws_block_device_to_string (t->device);

      ws_json_field_string (b, "device", device);
      ws_json_field_int (b, "bytes", (gint64) MIN (t->bytes, (guint64) G_MAXINT64));
    }
  ws_json_field_int (b, "tid", th->tid);
  ws_json_field_string (b, "name", th->name ? th->name : "");
  ws_json_field_string (b, "program", ws_trace_get_program_name (t->trace, t->thread));
  ws_json_field_string (b, "trace", ws_trace_get_path (t->trace));
  ws_json_field_int (b, "time", t->time);
  ws_json_field_double (b, "share", c->time > 0 ? (double) t->time / c->time : 0.0);
  json_builder_end_object (b);
}

static void
add_cause (JsonBuilder   *b,
           const WsCause *c)
{
  char state[2] = { c->state, '\0' };
  /* the same words as the text output, the critical path and the ready tree */
  g_autofree char *ended = ws_cause_dup_ended (c);

  json_builder_begin_object (b);
  ws_json_field_string (b, "label", c->label);
  ws_json_field_string (b, "kind", cause_kind_name (c->kind));
  ws_json_field_string (b, "state", c->state != 0 ? state : NULL);
  ws_json_field_string (b, "signature", c->signature);
  ws_json_field_string (b, "kernel_function", c->kernel_function);
  ws_json_field_string (b, "top_function", c->top_function);
  ws_json_field_int (b, "time", c->time);
  ws_json_field_double (b, "share", c->share);
  ws_json_field_begin_object (b, "woken_by");
  ws_json_field_int (b, "timer", c->timer_time);
  ws_json_field_int (b, "device", c->device_time);
  ws_json_field_int (b, "not_recorded", c->unknown_time);
  json_builder_end_object (b);
  ws_json_field_string (b, "ended", ended);
  ws_json_field_int (b, "instances", c->n_symptoms);
  ws_json_field_begin_array (b, "threads");
  for (guint i = 0; i < c->threads->len; i++)
    add_cause_thread (b, &g_array_index (c->threads, WsCauseThread, i));
  json_builder_end_array (b);
  ws_json_field_begin_array (b, "behind");
  for (guint i = 0; c->behind != NULL && i < c->behind->len && i < 10; i++)
    add_behind_thread (b, c, &g_array_index (c->behind, WsBehindThread, i));
  json_builder_end_array (b);
  ws_json_field_begin_array (b, "example_stack");
  for (guint i = 0; c->example_stack[i] != NULL; i++)
    json_builder_add_string_value (b, c->example_stack[i]);
  json_builder_end_array (b);
  json_builder_end_object (b);
}

static void
add_runner_up (JsonBuilder        *b,
               const WsThreadPick *p)
{
  if (p->runner_up == NULL)
    {
      ws_json_field_null (b, "runner_up");
      return;
    }
  ws_json_field_begin_object (b, "runner_up");
  ws_json_field_string (b, "program", p->runner_up);
  ws_json_field_int (b, "pid", p->runner_up_pid);
  ws_json_field_int (b, "score", (gint64) p->runner_up_score);
  ws_json_field_int (b, "ran", p->runner_up_ran);
  json_builder_end_object (b);
}

/* Which program a trace without scenarios was explained from, and why. */
static void
add_pick (JsonBuilder        *b,
          const WsThreadPick *p)
{
  g_autofree char *reason = ws_thread_pick_describe (p);

  json_builder_begin_object (b);
  ws_json_field_string (b, "trace", ws_trace_get_path (p->trace));
  ws_json_field_string (b, "program", p->program);
  ws_json_field_int (b, "processes", p->n_processes);
  ws_json_field_begin_array (b, "tids");
  for (guint k = 0; k < p->threads->len; k++)
    json_builder_add_int_value (b, ws_trace_get_thread (p->trace, g_array_index (p->threads, guint, k))->tid);
  json_builder_end_array (b);
  ws_json_field_int (b, "held_by_own_program", p->inside);
  ws_json_field_int (b, "held_by_other_programs", p->outside);
  ws_json_field_int (b, "waiting_for_cpu", p->cpu);
  ws_json_field_int (b, "ran", p->ran);
  ws_json_field_int (b, "pid", p->pid);
  ws_json_field_string (b, "how", pick_how_name (p));
  ws_json_field_int (b, "score", (gint64) p->score);
  ws_json_field_int (b, "waited_for_until_it_ended", p->launched);
  add_runner_up (b, p);
  ws_json_field_string (b, "reason", reason);
  json_builder_end_object (b);
}

JsonNode *
ws_attribution_export_json (WsAttribution *attribution,
                            const char    *explained,
                            GPtrArray     *picks,
                            guint          top)
{
  g_autoptr(JsonBuilder) b = json_builder_new ();
  guint n = ws_attribution_get_n_causes (attribution);

  json_builder_begin_object (b);
  ws_json_field_int (b, "schema_version", WS_ATTRIBUTION_SCHEMA_VERSION);
  ws_json_field_string (b, "time_unit", "ns");
  ws_json_field_string (b, "frame_order", "caller first");
  ws_json_field_string (b, "explained", explained);
  ws_json_field_int (b, "targets", ws_attribution_get_n_targets (attribution));
  ws_json_field_begin_array (b, "picked");
  for (guint i = 0; picks != NULL && i < picks->len; i++)
    add_pick (b, g_ptr_array_index (picks, i));
  json_builder_end_array (b);
  ws_json_field_int (b, "total", ws_attribution_get_total (attribution));
  ws_json_field_begin_array (b, "causes");
  for (guint i = 0; i < n && (top == 0 || i < top); i++)
    add_cause (b, ws_attribution_get_cause (attribution, i));
  json_builder_end_array (b);
  json_builder_end_object (b);
  return json_builder_get_root (b);
}
