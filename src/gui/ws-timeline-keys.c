/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Keyboard navigation of the timeline.  The selected wait (the viewport's
 * selected event) is the keyboard cursor: [ and ] step to the previous and
 * next wait of its thread (from the top visible thread when nothing is
 * selected), Left/Right do the same once a wait is selected (and pan
 * otherwise), Up/Down move to the wait of the thread above or below that
 * is nearest in time (and scroll otherwise).  Return makes the selected
 * wait the selected window, Shift+Left/Right widen the window by a wait at
 * either end, so that the analyses of a window and the flags of a wait
 * are all reachable without a mouse.
 */
#include "config.h"

#include <glib/gi18n.h>

#include "ws-event-format.h"
#include "ws-time-format.h"
#include "ws-timeline-keys.h"

#define KEY_PAN_FRACTION 0.15

static WsTrace *
view_trace (WsTimelineView *view)
{
  WsTimelineLayout *layout = ws_timeline_view_get_layout (view);

  return layout != NULL ? ws_timeline_layout_get_trace (layout) : NULL;
}

static gboolean
is_wait (WsTrace *trace,
         guint    event)
{
  return event != WS_NONE && event < ws_trace_get_n_events (trace) &&
         ws_trace_get_event (trace, event)->kind == WS_EVENT_WAIT;
}

/* The selected wait, or WS_NONE. */
static guint
selected_wait (WsTimelineView *view)
{
  WsTimelineViewport *vp = ws_timeline_view_get_viewport (view);
  WsTrace *trace = view_trace (view);
  guint event;

  if (vp == NULL || trace == NULL)
    return WS_NONE;
  event = ws_timeline_viewport_get_selected_event (vp);
  return is_wait (trace, event) ? event : WS_NONE;
}

/* Position of @event in its thread's time-ordered list. */
static guint
position_in_thread (WsTrace *trace,
                    guint    event)
{
  const WsEvent *e = ws_trace_get_event (trace, event);
  const WsThread *t = ws_trace_get_thread (trace, e->thread);
  guint i = ws_trace_thread_lower_bound (trace, e->thread, e->time);

  while (i < t->n_events && t->events[i] != event)
    i++;
  return i;
}

/* The wait of @thread after (@step 1) or before (@step -1) position @from;
 * WS_NONE past either end. */
static guint
step_wait (WsTrace *trace,
           guint    thread,
           gint64   from,
           int      step)
{
  const WsThread *t = ws_trace_get_thread (trace, thread);

  for (gint64 i = from + step; i >= 0 && i < (gint64) t->n_events; i += step)
    if (is_wait (trace, t->events[i]))
      return t->events[i];
  return WS_NONE;
}

/* The wait of @thread nearest to @time (by its start or end), or WS_NONE. */
static guint
nearest_wait (WsTrace *trace,
              guint    thread,
              WsTime   time)
{
  gint64 at = ws_trace_thread_lower_bound (trace, thread, time);
  guint after = step_wait (trace, thread, at - 1, 1);
  guint before = step_wait (trace, thread, at, -1);
  const WsEvent *b, *a;

  if (before == WS_NONE || after == WS_NONE)
    return before != WS_NONE ? before : after;
  b = ws_trace_get_event (trace, before);
  a = ws_trace_get_event (trace, after);
  if (b->time + ws_event_duration (b) >= time)
    return before;
  return time - (b->time + ws_event_duration (b)) <= a->time - time ? before : after;
}

/* The first thread row at or below the top of the view. */
static guint
top_thread (WsTimelineView *view)
{
  WsTimelineLayout *layout = ws_timeline_view_get_layout (view);
  GtkAdjustment *vadj = gtk_scrollable_get_vadjustment (GTK_SCROLLABLE (view));
  guint row = ws_timeline_layout_row_at_y (layout, vadj != NULL ? gtk_adjustment_get_value (vadj) : 0);

  for (guint r = row == WS_NONE ? 0 : row; r < ws_timeline_layout_get_n_rows (layout); r++)
    {
      const WsTimelineRow *tr = ws_timeline_layout_get_row (layout, r);

      if (tr->kind == WS_TIMELINE_ROW_THREAD)
        return tr->index;
    }
  return WS_NONE;
}

static void
select_wait (WsTimelineView *view,
             guint           wait)
{
  if (wait == WS_NONE)
    {
      gtk_widget_error_bell (GTK_WIDGET (view));
      return;
    }
  ws_timeline_viewport_set_selected_event (ws_timeline_view_get_viewport (view), wait);
  ws_timeline_view_reveal_event (view, wait);
}

/* [ and ]: the previous or next wait of the selected wait's thread; with
 * none selected, the first wait at or after the left edge of the view on
 * the top visible thread that has one. */
static gboolean
step_wait_cb (GtkWidget *widget,
              GVariant  *args,
              gpointer   data)
{
  WsTimelineView *view = WS_TIMELINE_VIEW (widget);
  WsTrace *trace = view_trace (view);
  guint wait = selected_wait (view);
  int step = g_variant_get_int32 (args);
  WsTimelineLayout *layout;
  guint row;

  if (trace == NULL)
    return FALSE;
  if (wait != WS_NONE)
    {
      select_wait (view, step_wait (trace, ws_trace_get_event (trace, wait)->thread,
                                    position_in_thread (trace, wait), step));
      return TRUE;
    }
  layout = ws_timeline_view_get_layout (view);
  row = ws_timeline_layout_find_thread_row (layout, top_thread (view));
  for (; row != WS_NONE && row < ws_timeline_layout_get_n_rows (layout); row++)
    {
      const WsTimelineRow *r = ws_timeline_layout_get_row (layout, row);
      WsTime begin = ws_timeline_viewport_get_begin (ws_timeline_view_get_viewport (view));

      if (r->kind != WS_TIMELINE_ROW_THREAD)
        continue;
      wait = nearest_wait (trace, r->index, begin);
      if (wait != WS_NONE)
        break;
    }
  select_wait (view, wait);
  return TRUE;
}

/* Left/Right step along the thread once a wait is selected, else pan. */
static gboolean
left_right_cb (GtkWidget *widget,
               GVariant  *args,
               gpointer   data)
{
  int step = g_variant_get_int32 (args);

  if (selected_wait (WS_TIMELINE_VIEW (widget)) != WS_NONE)
    return step_wait_cb (widget, args, data);
  gtk_widget_activate_action (widget, "timeline.pan", "d", step * KEY_PAN_FRACTION);
  return TRUE;
}

/* Up/Down move to the nearest wait of the thread row above or below
 * (skipping threads without waits) once a wait is selected, else scroll. */
static gboolean
up_down_cb (GtkWidget *widget,
            GVariant  *args,
            gpointer   data)
{
  WsTimelineView *view = WS_TIMELINE_VIEW (widget);
  WsTimelineLayout *layout = ws_timeline_view_get_layout (view);
  WsTrace *trace = view_trace (view);
  guint wait = selected_wait (view);
  int step = g_variant_get_int32 (args);
  const WsEvent *e;
  gint64 row;

  if (wait == WS_NONE)
    {
      gtk_widget_activate_action (widget, "timeline.scroll-rows", "d", step * 0.1);
      return TRUE;
    }
  e = ws_trace_get_event (trace, wait);
  row = ws_timeline_layout_find_thread_row (layout, e->thread);
  for (row += step; row >= 0 && row < ws_timeline_layout_get_n_rows (layout); row += step)
    {
      const WsTimelineRow *r = ws_timeline_layout_get_row (layout, row);
      guint next;

      if (r->kind != WS_TIMELINE_ROW_THREAD)
        continue;
      next = nearest_wait (trace, r->index, e->time + ws_event_duration (e) / 2);
      if (next != WS_NONE)
        {
          select_wait (view, next);
          return TRUE;
        }
    }
  gtk_widget_error_bell (widget);
  return TRUE;
}

/* Return: the selected wait becomes the selected window of its thread. */
static gboolean
select_window_cb (GtkWidget *widget,
                  GVariant  *args,
                  gpointer   data)
{
  WsTimelineView *view = WS_TIMELINE_VIEW (widget);
  WsTrace *trace = view_trace (view);
  guint wait = selected_wait (view);
  const WsEvent *e;

  if (wait == WS_NONE)
    return FALSE;
  e = ws_trace_get_event (trace, wait);
  ws_timeline_viewport_set_selection (ws_timeline_view_get_viewport (view), e->thread,
                                      e->time, e->time + MAX (ws_event_duration (e), 1));
  return TRUE;
}

/* Shift+Left/Right: the window grows by the previous or next wait of its
 * thread (the selected wait's window first, if there is none yet). */
static gboolean
extend_window_cb (GtkWidget *widget,
                  GVariant  *args,
                  gpointer   data)
{
  WsTimelineView *view = WS_TIMELINE_VIEW (widget);
  WsTimelineViewport *vp = ws_timeline_view_get_viewport (view);
  WsTrace *trace = view_trace (view);
  int step = g_variant_get_int32 (args);
  guint thread, next;
  WsTime t0, t1;
  gint64 at;
  const WsEvent *e;

  if (trace == NULL || vp == NULL)
    return FALSE;
  if (!ws_timeline_viewport_get_selection (vp, &thread, &t0, &t1))
    return select_window_cb (widget, NULL, data);
  at = ws_trace_thread_lower_bound (trace, thread, step > 0 ? t1 : t0);
  next = step_wait (trace, thread, step > 0 ? at - 1 : at, step);
  if (next == WS_NONE)
    {
      gtk_widget_error_bell (widget);
      return TRUE;
    }
  e = ws_trace_get_event (trace, next);
  if (step > 0)
    t1 = MAX (t1, e->time + MAX (ws_event_duration (e), 1));
  else
    t0 = MIN (t0, e->time);
  ws_timeline_viewport_set_selection (vp, thread, t0, t1);
  ws_timeline_viewport_set_selected_event (vp, next);
  ws_timeline_view_reveal_event (view, next);
  return TRUE;
}

void
ws_timeline_keys_install (GtkWidgetClass *widget_class)
{
  gtk_widget_class_add_binding (widget_class, GDK_KEY_bracketleft, 0, step_wait_cb, "i", -1);
  gtk_widget_class_add_binding (widget_class, GDK_KEY_bracketright, 0, step_wait_cb, "i", 1);
  gtk_widget_class_add_binding (widget_class, GDK_KEY_Left, 0, left_right_cb, "i", -1);
  gtk_widget_class_add_binding (widget_class, GDK_KEY_Right, 0, left_right_cb, "i", 1);
  gtk_widget_class_add_binding (widget_class, GDK_KEY_Up, 0, up_down_cb, "i", -1);
  gtk_widget_class_add_binding (widget_class, GDK_KEY_Down, 0, up_down_cb, "i", 1);
  gtk_widget_class_add_binding (widget_class, GDK_KEY_Return, 0, select_window_cb, NULL);
  gtk_widget_class_add_binding (widget_class, GDK_KEY_KP_Enter, 0, select_window_cb, NULL);
  gtk_widget_class_add_binding (widget_class, GDK_KEY_Left, GDK_SHIFT_MASK, extend_window_cb, "i", -1);
  gtk_widget_class_add_binding (widget_class, GDK_KEY_Right, GDK_SHIFT_MASK, extend_window_cb, "i", 1);
}

/**
 * ws_timeline_keys_describe_selection:
 *
 * Returns: (transfer full) (nullable): the selected wait and the selected
 *   window in words, for the timeline's accessible description
 */
char *
ws_timeline_keys_describe_selection (WsTimelineView *view)
{
  WsTimelineViewport *vp = ws_timeline_view_get_viewport (view);
  WsTrace *trace = view_trace (view);
  GString *out;
  guint wait = selected_wait (view);
  guint thread;
  WsTime t0, t1;

  if (trace == NULL || vp == NULL)
    return NULL;
  out = g_string_new (NULL);
  if (wait != WS_NONE)
    {
      g_autofree char *title = ws_event_format_title (trace, wait);
      g_autofree char *who = ws_event_format_thread (trace, ws_trace_get_event (trace, wait)->thread);
      g_autofree char *at = ws_event_format_offset (trace, ws_trace_get_event (trace, wait)->time);

      /* Translators: accessible description of the selected wait: what,
       * thread, when */
      g_string_append_printf (out, _("Selected: %s of %s at %s."), title, who, at);
    }
  if (ws_timeline_viewport_get_selection (vp, &thread, &t0, &t1))
    {
      g_autofree char *who = ws_event_format_thread (trace, thread);
      g_autofree char *from = ws_event_format_offset (trace, t0);
      g_autofree char *span = ws_format_duration (t1 - t0);

      if (out->len > 0)
        g_string_append_c (out, ' ');
      /* Translators: accessible description of the selected window:
       * thread, start, length */
      g_string_append_printf (out, _("Window: %s from %s for %s."), who, from, span);
    }
  if (out->len == 0)
    return g_string_free (out, TRUE);
  return g_string_free (out, FALSE);
}
