/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The zoom/pan/selection state of a timeline, kept out of the widget
 * (as Sysprof keeps it in its session) so that the time ↔ pixel mapping is
 * testable without drawing and the exporters can reuse it.
 */
#include "config.h"

#include <math.h>

#include "ws-timeline-viewport.h"

#define MAX_HISTORY 64

typedef struct {
  WsTime begin;
  WsTime end;
} Span;

struct _WsTimelineViewport
{
  GObject parent_instance;

  WsTime  min;
  WsTime  max;
  WsTime  begin;
  WsTime  end;
  double  width;

  GArray *history;        /* Span, oldest first */

  guint   sel_thread;
  WsTime  sel_t0;
  WsTime  sel_t1;

  guint   hovered_event;
  guint   selected_event;

  GHashTable *highlighted_threads;  /* thread index + 1, or NULL when none */
};

G_DEFINE_FINAL_TYPE (WsTimelineViewport, ws_timeline_viewport, G_TYPE_OBJECT)

enum {
  PROP_0,
  PROP_BEGIN,
  PROP_END,
  PROP_WIDTH,
  PROP_CAN_GO_BACK,
  PROP_HAS_SELECTION,
  PROP_HOVERED_EVENT,
  PROP_SELECTED_EVENT,
  N_PROPS
};

enum {
  CHANGED,
  SELECTION_CHANGED,
  N_SIGNALS
};

static GParamSpec *properties[N_PROPS];
static guint signals[N_SIGNALS];

static void
ws_timeline_viewport_finalize (GObject *object)
{
  WsTimelineViewport *self = WS_TIMELINE_VIEWPORT (object);

  g_array_unref (self->history);
  g_clear_pointer (&self->highlighted_threads, g_hash_table_unref);

  G_OBJECT_CLASS (ws_timeline_viewport_parent_class)->finalize (object);
}

static void
ws_timeline_viewport_get_property (GObject    *object,
                                   guint       prop_id,
                                   GValue     *value,
                                   GParamSpec *pspec)
{
  WsTimelineViewport *self = WS_TIMELINE_VIEWPORT (object);

  switch (prop_id)
    {
    case PROP_BEGIN:
      g_value_set_int64 (value, self->begin);
      break;
    case PROP_END:
      g_value_set_int64 (value, self->end);
      break;
    case PROP_WIDTH:
      g_value_set_double (value, self->width);
      break;
    case PROP_CAN_GO_BACK:
      g_value_set_boolean (value, ws_timeline_viewport_can_go_back (self));
      break;
    case PROP_HAS_SELECTION:
      g_value_set_boolean (value, self->sel_thread != WS_NONE);
      break;
    case PROP_HOVERED_EVENT:
      g_value_set_uint (value, self->hovered_event);
      break;
    case PROP_SELECTED_EVENT:
      g_value_set_uint (value, self->selected_event);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
ws_timeline_viewport_class_init (WsTimelineViewportClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = ws_timeline_viewport_finalize;
  object_class->get_property = ws_timeline_viewport_get_property;

  properties[PROP_BEGIN] =
    g_param_spec_int64 ("begin", NULL, NULL, G_MININT64, G_MAXINT64, 0,
                        G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  properties[PROP_END] =
    g_param_spec_int64 ("end", NULL, NULL, G_MININT64, G_MAXINT64, 0,
                        G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  properties[PROP_WIDTH] =
    g_param_spec_double ("width", NULL, NULL, 0, G_MAXDOUBLE, 1,
                         G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  properties[PROP_CAN_GO_BACK] =
    g_param_spec_boolean ("can-go-back", NULL, NULL, FALSE,
                          G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  properties[PROP_HAS_SELECTION] =
    g_param_spec_boolean ("has-selection", NULL, NULL, FALSE,
                          G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  properties[PROP_HOVERED_EVENT] =
    g_param_spec_uint ("hovered-event", NULL, NULL, 0, G_MAXUINT32, WS_NONE,
                       G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  properties[PROP_SELECTED_EVENT] =
    g_param_spec_uint ("selected-event", NULL, NULL, 0, G_MAXUINT32, WS_NONE,
                       G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  /**
   * WsTimelineViewport::changed:
   *
   * The mapping changed: visible span, bounds or width.  One emission per
   * change, however many of the three moved.
   */
  signals[CHANGED] =
    g_signal_new ("changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 0);

  /**
   * WsTimelineViewport::selection-changed:
   *
   * The selected thread window was set, moved or cleared.
   */
  signals[SELECTION_CHANGED] =
    g_signal_new ("selection-changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 0);
}

static void
ws_timeline_viewport_init (WsTimelineViewport *self)
{
  self->history = g_array_new (FALSE, FALSE, sizeof (Span));
  self->width = 1;
  self->min = 0;
  self->max = 1000000000;
  self->begin = self->min;
  self->end = self->max;
  self->sel_thread = WS_NONE;
  self->hovered_event = WS_NONE;
  self->selected_event = WS_NONE;
}

WsTimelineViewport *
ws_timeline_viewport_new (void)
{
  return g_object_new (WS_TYPE_TIMELINE_VIEWPORT, NULL);
}

/* Clamps a span into the bounds, keeping its length if it fits. */
static void
clamp_span (WsTimelineViewport *self,
            WsTime             *begin,
            WsTime             *end)
{
  WsTime bounds = MAX (self->max - self->min, WS_TIMELINE_MIN_SPAN);
  WsTime span = CLAMP (*end - *begin, WS_TIMELINE_MIN_SPAN, bounds);

  if (*begin < self->min)
    *begin = self->min;
  if (*begin > self->min + bounds - span)
    *begin = self->min + bounds - span;
  *end = *begin + span;
}

static gboolean
update (WsTimelineViewport *self,
        WsTime              begin,
        WsTime              end)
{
  clamp_span (self, &begin, &end);
  if (begin == self->begin && end == self->end)
    return FALSE;

  self->begin = begin;
  self->end = end;
  g_object_freeze_notify (G_OBJECT (self));
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_BEGIN]);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_END]);
  g_object_thaw_notify (G_OBJECT (self));
  g_signal_emit (self, signals[CHANGED], 0);
  return TRUE;
}

/**
 * ws_timeline_viewport_set_bounds:
 * @min: the first instant that can be shown (the trace's start)
 * @max: the last one (the trace's end)
 *
 * Sets the bounds, shows all of them and forgets the zoom history, the
 * selection and the hovered/selected events: new bounds mean a new trace.
 */
void
ws_timeline_viewport_set_bounds (WsTimelineViewport *self,
                                 WsTime              min,
                                 WsTime              max)
{
  g_return_if_fail (WS_IS_TIMELINE_VIEWPORT (self));
  g_return_if_fail (max >= min);

  self->min = min;
  self->max = MAX (max, min + WS_TIMELINE_MIN_SPAN);
  g_array_set_size (self->history, 0);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_CAN_GO_BACK]);
  ws_timeline_viewport_clear_selection (self);
  ws_timeline_viewport_set_hovered_event (self, WS_NONE);
  ws_timeline_viewport_set_selected_event (self, WS_NONE);

  self->begin = self->end = G_MININT64;
  update (self, self->min, self->max);
}

WsTime
ws_timeline_viewport_get_min (WsTimelineViewport *self)
{
  g_return_val_if_fail (WS_IS_TIMELINE_VIEWPORT (self), 0);
  return self->min;
}

WsTime
ws_timeline_viewport_get_max (WsTimelineViewport *self)
{
  g_return_val_if_fail (WS_IS_TIMELINE_VIEWPORT (self), 0);
  return self->max;
}

void
ws_timeline_viewport_set_width (WsTimelineViewport *self,
                                double              width)
{
  g_return_if_fail (WS_IS_TIMELINE_VIEWPORT (self));

  width = MAX (width, 1.0);
  if (width == self->width)
    return;
  self->width = width;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_WIDTH]);
  g_signal_emit (self, signals[CHANGED], 0);
}

double
ws_timeline_viewport_get_width (WsTimelineViewport *self)
{
  g_return_val_if_fail (WS_IS_TIMELINE_VIEWPORT (self), 1);
  return self->width;
}

/**
 * ws_timeline_viewport_set_visible:
 *
 * Shows [@begin, @end), clamped into the bounds and to at least
 * %WS_TIMELINE_MIN_SPAN; a span that fits is moved, not shortened.
 */
void
ws_timeline_viewport_set_visible (WsTimelineViewport *self,
                                  WsTime              begin,
                                  WsTime              end)
{
  g_return_if_fail (WS_IS_TIMELINE_VIEWPORT (self));
  update (self, begin, end);
}

WsTime
ws_timeline_viewport_get_begin (WsTimelineViewport *self)
{
  g_return_val_if_fail (WS_IS_TIMELINE_VIEWPORT (self), 0);
  return self->begin;
}

WsTime
ws_timeline_viewport_get_end (WsTimelineViewport *self)
{
  g_return_val_if_fail (WS_IS_TIMELINE_VIEWPORT (self), 0);
  return self->end;
}

double
ws_timeline_viewport_get_ns_per_px (WsTimelineViewport *self)
{
  g_return_val_if_fail (WS_IS_TIMELINE_VIEWPORT (self), 1);
  return (double) (self->end - self->begin) / self->width;
}

double
ws_timeline_viewport_time_to_x (WsTimelineViewport *self,
                                WsTime              time)
{
  g_return_val_if_fail (WS_IS_TIMELINE_VIEWPORT (self), 0);
  return (double) (time - self->begin) * self->width / (double) (self->end - self->begin);
}

WsTime
ws_timeline_viewport_x_to_time (WsTimelineViewport *self,
                                double              x)
{
  g_return_val_if_fail (WS_IS_TIMELINE_VIEWPORT (self), 0);
  return self->begin + (WsTime) llround (x * (double) (self->end - self->begin) / self->width);
}

/**
 * ws_timeline_viewport_zoom:
 * @factor: > 1 zooms in (shows 1/@factor of the span), < 1 zooms out
 * @anchor_x: the pixel whose time stays put (the pointer, or the middle)
 */
void
ws_timeline_viewport_zoom (WsTimelineViewport *self,
                           double              factor,
                           double              anchor_x)
{
  double span, new_span, anchor_time;
  WsTime begin;

  g_return_if_fail (WS_IS_TIMELINE_VIEWPORT (self));
  g_return_if_fail (factor > 0);

  span = (double) (self->end - self->begin);
  new_span = CLAMP (span / factor, WS_TIMELINE_MIN_SPAN,
                    (double) MAX (self->max - self->min, WS_TIMELINE_MIN_SPAN));
  anchor_time = self->begin + anchor_x * span / self->width;
  begin = (WsTime) llround (anchor_time - anchor_x * new_span / self->width);
  update (self, begin, begin + (WsTime) llround (new_span));
}

/**
 * ws_timeline_viewport_pan:
 * @dx: pixels to move the view to the right (later times); negative moves left
 */
void
ws_timeline_viewport_pan (WsTimelineViewport *self,
                          double              dx)
{
  WsTime shift;

  g_return_if_fail (WS_IS_TIMELINE_VIEWPORT (self));

  shift = (WsTime) llround (dx * ws_timeline_viewport_get_ns_per_px (self));
  if (shift > 0)
    shift = MIN (shift, self->max - self->end);
  else
    shift = MAX (shift, self->min - self->begin);
  update (self, self->begin + shift, self->end + shift);
}

void
ws_timeline_viewport_zoom_to_fit (WsTimelineViewport *self)
{
  g_return_if_fail (WS_IS_TIMELINE_VIEWPORT (self));
  update (self, self->min, self->max);
}

/**
 * ws_timeline_viewport_push_history:
 *
 * Remembers the visible span, for ws_timeline_viewport_go_back().  Call it
 * before a deliberate jump (zoom to selection, a burst of zoom steps).
 */
void
ws_timeline_viewport_push_history (WsTimelineViewport *self)
{
  Span span;

  g_return_if_fail (WS_IS_TIMELINE_VIEWPORT (self));

  span.begin = self->begin;
  span.end = self->end;
  if (self->history->len > 0)
    {
      const Span *top = &g_array_index (self->history, Span, self->history->len - 1);
      if (top->begin == span.begin && top->end == span.end)
        return;
    }
  if (self->history->len == MAX_HISTORY)
    g_array_remove_index (self->history, 0);
  g_array_append_val (self->history, span);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_CAN_GO_BACK]);
}

gboolean
ws_timeline_viewport_can_go_back (WsTimelineViewport *self)
{
  g_return_val_if_fail (WS_IS_TIMELINE_VIEWPORT (self), FALSE);
  return self->history->len > 0;
}

/**
 * ws_timeline_viewport_go_back:
 *
 * Returns to the last remembered span that differs from the visible one.
 *
 * Returns: %FALSE if there was none
 */
gboolean
ws_timeline_viewport_go_back (WsTimelineViewport *self)
{
  g_return_val_if_fail (WS_IS_TIMELINE_VIEWPORT (self), FALSE);

  while (self->history->len > 0)
    {
      Span span = g_array_index (self->history, Span, self->history->len - 1);

      g_array_set_size (self->history, self->history->len - 1);
      if (span.begin != self->begin || span.end != self->end)
        {
          update (self, span.begin, span.end);
          g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_CAN_GO_BACK]);
          return TRUE;
        }
    }
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_CAN_GO_BACK]);
  return FALSE;
}

/**
 * ws_timeline_viewport_set_selection:
 * @thread: the thread index
 * @t0: one end of the window
 * @t1: the other end (the two are ordered)
 *
 * Selects a window of one thread: the symptom ⟨thread, t0, t1⟩ of the wait
 * graph and the ready tree.  The window is clamped into the bounds.
 */
void
ws_timeline_viewport_set_selection (WsTimelineViewport *self,
                                    guint               thread,
                                    WsTime              t0,
                                    WsTime              t1)
{
  gboolean had;

  g_return_if_fail (WS_IS_TIMELINE_VIEWPORT (self));
  g_return_if_fail (thread != WS_NONE);

  if (t1 < t0)
    {
      WsTime tmp = t0;
      t0 = t1;
      t1 = tmp;
    }
  t0 = CLAMP (t0, self->min, self->max);
  t1 = CLAMP (t1, self->min, self->max);

  if (self->sel_thread == thread && self->sel_t0 == t0 && self->sel_t1 == t1)
    return;

  had = self->sel_thread != WS_NONE;
  self->sel_thread = thread;
  self->sel_t0 = t0;
  self->sel_t1 = t1;
  if (!had)
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_HAS_SELECTION]);
  g_signal_emit (self, signals[SELECTION_CHANGED], 0);
}

/**
 * ws_timeline_viewport_get_selection:
 * @thread: (out) (optional):
 * @t0: (out) (optional):
 * @t1: (out) (optional):
 *
 * Returns: %TRUE if a thread window is selected
 */
gboolean
ws_timeline_viewport_get_selection (WsTimelineViewport *self,
                                    guint              *thread,
                                    WsTime             *t0,
                                    WsTime             *t1)
{
  g_return_val_if_fail (WS_IS_TIMELINE_VIEWPORT (self), FALSE);

  if (thread)
    *thread = self->sel_thread;
  if (t0)
    *t0 = self->sel_t0;
  if (t1)
    *t1 = self->sel_t1;
  return self->sel_thread != WS_NONE;
}

void
ws_timeline_viewport_clear_selection (WsTimelineViewport *self)
{
  g_return_if_fail (WS_IS_TIMELINE_VIEWPORT (self));

  if (self->sel_thread == WS_NONE)
    return;
  self->sel_thread = WS_NONE;
  self->sel_t0 = self->sel_t1 = 0;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_HAS_SELECTION]);
  g_signal_emit (self, signals[SELECTION_CHANGED], 0);
}

/**
 * ws_timeline_viewport_set_highlighted_threads:
 * @threads: (array length=n_threads) (nullable): thread indices
 * @n_threads: how many; 0 clears the highlight
 *
 * Marks whole thread rows, e.g. the bridging threads of an inspector
 * finding, apart from the one selected thread window.  Emits
 * ::selection-changed.
 */
void
ws_timeline_viewport_set_highlighted_threads (WsTimelineViewport *self,
                                              const guint32      *threads,
                                              guint               n_threads)
{
  g_return_if_fail (WS_IS_TIMELINE_VIEWPORT (self));
  g_return_if_fail (threads != NULL || n_threads == 0);

  if (self->highlighted_threads == NULL && n_threads == 0)
    return;
  g_clear_pointer (&self->highlighted_threads, g_hash_table_unref);
  if (n_threads > 0)
    {
      self->highlighted_threads = g_hash_table_new (g_direct_hash, g_direct_equal);
      /* + 1: thread 0 must not be the NULL key */
      for (guint i = 0; i < n_threads; i++)
        g_hash_table_add (self->highlighted_threads, GUINT_TO_POINTER (threads[i] + 1));
    }
  g_signal_emit (self, signals[SELECTION_CHANGED], 0);
}

gboolean
ws_timeline_viewport_is_thread_highlighted (WsTimelineViewport *self,
                                            guint               thread)
{
  g_return_val_if_fail (WS_IS_TIMELINE_VIEWPORT (self), FALSE);

  return self->highlighted_threads != NULL && thread != WS_NONE &&
         g_hash_table_contains (self->highlighted_threads, GUINT_TO_POINTER (thread + 1));
}

guint
ws_timeline_viewport_get_n_highlighted_threads (WsTimelineViewport *self)
{
  g_return_val_if_fail (WS_IS_TIMELINE_VIEWPORT (self), 0);

  return self->highlighted_threads ? g_hash_table_size (self->highlighted_threads) : 0;
}

void
ws_timeline_viewport_set_hovered_event (WsTimelineViewport *self,
                                        guint               event)
{
  g_return_if_fail (WS_IS_TIMELINE_VIEWPORT (self));

  if (self->hovered_event == event)
    return;
  self->hovered_event = event;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_HOVERED_EVENT]);
}

guint
ws_timeline_viewport_get_hovered_event (WsTimelineViewport *self)
{
  g_return_val_if_fail (WS_IS_TIMELINE_VIEWPORT (self), WS_NONE);
  return self->hovered_event;
}

void
ws_timeline_viewport_set_selected_event (WsTimelineViewport *self,
                                         guint               event)
{
  g_return_if_fail (WS_IS_TIMELINE_VIEWPORT (self));

  if (self->selected_event == event)
    return;
  self->selected_event = event;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SELECTED_EVENT]);
}

guint
ws_timeline_viewport_get_selected_event (WsTimelineViewport *self)
{
  g_return_val_if_fail (WS_IS_TIMELINE_VIEWPORT (self), WS_NONE);
  return self->selected_event;
}
