/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <glib/gi18n.h>
#include <string.h>

#include "ws-event-format.h"
#include "ws-false-run.h"
#include "ws-time-format.h"
#include "ws-timeline-lod.h"
#include "ws-wait-readier.h"
#include "ws-wake-words.h"

/**
 * ws_event_format_title:
 *
 * Returns: (transfer full): what the event is and how long it lasted,
 *   e.g. "Sleeping (S) · 2.03 ms"
 */
char *
ws_event_format_title (WsTrace *trace,
                       guint    event)
{
  const WsEvent *e = ws_trace_get_event (trace, event);
  g_autofree char *dur = ws_format_duration (ws_event_duration (e));

  switch ((WsEventKind) e->kind)
    {
    case WS_EVENT_WAIT:
      return g_strdup_printf ("%s · %s", ws_thread_state_get_label (ws_thread_state_for_wait (e)), dur);
    case WS_EVENT_RUNNING:
      if (e->flags & WS_EVENT_FLAG_SPAN)
        /* Translators: a run span: duration and CPU number */
        return g_strdup_printf (_("Running · %s on CPU %u"), dur, e->cpu);
      /* Translators: a CPU sample: CPU number */
      return g_strdup_printf (_("CPU sample on CPU %u"), e->cpu);
    case WS_EVENT_PREEMPT:
      /* Translators: a preemption: how long the thread stayed runnable */
      return g_strdup_printf (_("Preempted · ready for %s"), dur);
    case WS_EVENT_UNWAIT:
      {
        g_autofree char *target = ws_event_target (e) != WS_NONE ? ws_event_format_thread (trace, ws_event_target (e)) : g_strdup ("?");
        /* Translators: an unwait event: the thread that was woken */
        return g_strdup_printf (_("Woke %s"), target);
      }
    case WS_EVENT_HW_SERVICE:
      return g_strdup (_("Wake-up from interrupt context"));
    case WS_EVENT_MARKER:
      {
        const char *name = ws_trace_get_string (trace, ws_event_name (e));
        /* Translators: a marker event (probe, fork…) and its name */
        return g_strdup_printf (_("Marker %s"), name ? name : "?");
      }
    case WS_N_EVENT_KINDS:
    default:
      return g_strdup ("?");
    }
}

/**
 * ws_event_format_thread:
 * Returns: (transfer full): "name (tid)"
 */
char *
ws_event_format_thread (WsTrace *trace,
                        guint    thread)
{
  const WsThread *t;

  if (thread == WS_NONE || thread >= ws_trace_get_n_threads (trace))
    return g_strdup (_("unknown thread"));
  t = ws_trace_get_thread (trace, thread);
  return g_strdup_printf ("%s (%d)", t->name ? t->name : "?", t->tid);
}

/**
 * ws_event_format_readier:
 *
 * Returns: (transfer full) (nullable): for a wait, who ended it and how
 *   soon the thread ran afterwards; %NULL for other events
 */
char *
ws_event_format_readier (WsTrace *trace,
                         guint    event)
{
  const WsEvent *e = ws_trace_get_event (trace, event);
  g_autofree char *who = NULL;
  g_autofree char *latency = NULL;
  g_autofree char *joined = NULL;
  guint32 ready_latency;

  if (e->kind != WS_EVENT_WAIT)
    return NULL;

  who = ws_wait_readier_dup_sentence (NULL, trace, event);

  ready_latency = ws_trace_wait_ready_latency (trace, event);
  if (ready_latency != WS_LATENCY_UNKNOWN)
    {
      char *with_latency;

      latency = ws_format_duration (ready_latency);
      /* Translators: "woken by X, ran 12 µs later" */
      with_latency = g_strdup_printf (_("%s, ran %s later"), who, latency);
      g_free (who);
      who = with_latency;
    }
  /* A try of a lock wait the program's timeout cut up: what the whole
   * wait was, on a line of its own. */
  if ((joined = ws_false_runs_describe (trace, NULL, event)) == NULL)
    return g_steal_pointer (&who);
  return g_strdup_printf ("%s\n%s", who, joined);
}

/**
 * ws_event_format_stack:
 * @max_frames: at most this many frames, 0 for all
 *
 * Returns: (transfer full): one frame per line, leaf first, as debuggers
 *   show a stack ("function  module")
 */
char *
ws_event_format_stack (WsTrace *trace,
                       guint32  stack,
                       guint    max_frames)
{
  WsStackTable *stacks = ws_trace_get_stack_table (trace);
  GString *out = g_string_new (NULL);
  const WsFrameId *frames;
  guint n, shown = 0;

  if (stack == WS_STACK_EMPTY)
    return g_strdup (_("(no stack recorded)"));

  frames = ws_stack_table_get_stack (stacks, stack, &n);
  for (guint i = n; i > 0; i--)
    {
      const WsFrame *f = ws_stack_table_get_frame (stacks, frames[i - 1]);
      const char *module = f->module ? strrchr (f->module, '/') : NULL;

      if (max_frames != 0 && shown == max_frames)
        {
          /* Translators: the rest of a truncated stack */
          g_string_append_printf (out, _("… %u more"), i);
          break;
        }
      if (out->len > 0)
        g_string_append_c (out, '\n');
      g_string_append_printf (out, "%s  %s", f->function, module ? module + 1 : (f->module ? f->module : ""));
      shown++;
    }
  return g_string_free (out, FALSE);
}

/**
 * ws_event_format_dup_wake_explain:
 *
 * Returns: (transfer full) (nullable): for a wait no thread woke, the
 *   glossary's one-line definition of the word the views use for what
 *   ended it ("Timer expired: the wait's own timeout…"), else %NULL
 */
char *
ws_event_format_dup_wake_explain (WsTrace *trace,
                                  guint    event)
{
  WsWakeWord word;

  if (event == WS_NONE || event >= ws_trace_get_n_events (trace) ||
      !ws_wake_word_for_wait (NULL, trace, event, &word))
    return NULL;
  return g_strdup (ws_wake_word_explain (word));
}

/**
 * ws_event_format_markup:
 *
 * Returns: (transfer full): Pango markup for a tooltip: title, thread,
 *   time, readier and the top @max_frames frames
 */
char *
ws_event_format_markup (WsTrace *trace,
                        guint    event,
                        guint    max_frames)
{
  const WsEvent *e = ws_trace_get_event (trace, event);
  g_autofree char *title = ws_event_format_title (trace, event);
  g_autofree char *thread = ws_event_format_thread (trace, e->thread);
  g_autofree char *at = ws_format_duration (e->time - ws_trace_get_start_time (trace));
  g_autofree char *readier = ws_event_format_readier (trace, event);
  g_autofree char *stack = ws_event_format_stack (trace, e->stack, max_frames);
  g_autofree char *title_e = g_markup_escape_text (title, -1);
  g_autofree char *thread_e = g_markup_escape_text (thread, -1);
  g_autofree char *stack_e = g_markup_escape_text (stack, -1);
  GString *out = g_string_new (NULL);

  g_string_append_printf (out, "<b>%s</b>\n%s", title_e, thread_e);
  /* Translators: when an event happened, from the start of the trace */
  g_string_append_printf (out, "  <span alpha=\"65%%\">%s</span>", _("at"));
  g_string_append_printf (out, " <span alpha=\"65%%\">+%s</span>", at);
  if (readier != NULL)
    {
      g_autofree char *readier_e = g_markup_escape_text (readier, -1);
      g_autofree char *explain = ws_event_format_dup_wake_explain (trace, event);

      g_string_append_printf (out, "\n%s", readier_e);
      if (explain != NULL)
        {
          /* the glossary's definition of that word (docs/glossary.md) */
          g_autofree char *explain_e = g_markup_escape_text (explain, -1);
          g_string_append_printf (out, "\n<small><i>%s</i></small>", explain_e);
        }
    }
  if (e->kind != WS_EVENT_MARKER && e->kind != WS_EVENT_HW_SERVICE)
    g_string_append_printf (out, "\n<tt><small>%s</small></tt>", stack_e);
  return g_string_free (out, FALSE);
}

/**
 * ws_event_format_thread_short:
 * Returns: (transfer full): "name · tid", or "none" for %WS_NONE
 */
char *
ws_event_format_thread_short (WsTrace *trace,
                              guint    thread)
{
  const WsThread *t;

  if (thread == WS_NONE || thread >= ws_trace_get_n_threads (trace))
    return g_strdup (_("none"));
  t = ws_trace_get_thread (trace, thread);
  /* Translators: thread name and thread id */
  return g_strdup_printf (_("%s · %d"), t->name ? t->name : "?", t->tid);
}

/* Returns: (transfer full): @time from the trace's start, "+0.000100 s" */
char *
ws_event_format_offset (WsTrace *trace,
                        gint64   time)
{
  return g_strdup_printf (_("+%.6f s"), (time - ws_trace_get_start_time (trace)) / 1e9);
}

/* A WAIT event as "b · 2, 300 ns" (and "from +0.000100 s" if @when). */
char *
ws_event_format_wait (WsTrace  *trace,
                      guint     wait,
                      gboolean  when)
{
  const WsEvent *w = ws_trace_get_event (trace, wait);
  g_autofree char *who = ws_event_format_thread_short (trace, w->thread);
  g_autofree char *d = ws_format_duration (ws_event_duration (w));
  g_autofree char *at = ws_event_format_offset (trace, w->time);

  if (!when)
    /* Translators: a wait: thread, duration */
    return g_strdup_printf (_("%s, %s"), who, d);
  /* Translators: a wait: thread, duration, start */
  return g_strdup_printf (_("%s, %s from %s"), who, d, at);
}
