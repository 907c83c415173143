/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The critical path widget: input around the shared Cairo renderer.  A
 * path has at most a few thousand segments, so a frame is drawn straight
 * into the snapshot; GTK keeps the node while nothing changes (scrolling
 * the lanes does not redraw).
 */
#include "config.h"

#include <adwaita.h>
#include <glib/gi18n.h>
#include <math.h>

#include "ws-critical-path-view.h"
#include "ws-event-format.h"
#include "ws-time-format.h"
#include "ws-view-gestures.h"

#define WHEEL_ZOOM_STEP 1.25
#define KEY_ZOOM_STEP   1.5
#define PAN_FRACTION    0.1

struct _WsCriticalPathView
{
  GtkWidget               parent_instance;

  /* Owned references */
  WsCriticalPathRenderer *renderer;

  /* Where a drag started: the first time shown */
  WsTime                  drag_begin;
};

G_DEFINE_FINAL_TYPE (WsCriticalPathView, ws_critical_path_view, GTK_TYPE_WIDGET)

enum {
  PROP_0,
  PROP_PATH,
  PROP_SELECTED_SEGMENT,
  PROP_ZOOM,
  N_PROPS
};

enum {
  SEGMENT_ACTIVATED,
  N_SIGNALS
};

static GParamSpec *properties[N_PROPS];
static guint signals[N_SIGNALS];

static WsCriticalPath *
path (WsCriticalPathView *self)
{
  return ws_critical_path_renderer_get_path (self->renderer);
}

static guint
n_segments (WsCriticalPathView *self)
{
  return path (self) ? ws_critical_path_get_n_segments (path (self)) : 0;
}

/**
 * ws_critical_path_view_dup_segment_text:
 *
 * Returns: (transfer full): one line about @segment: thread, state,
 *   duration and where it starts in the window
 */
char *
ws_critical_path_view_dup_segment_text (WsCriticalPathView *self,
                                        guint               segment)
{
  const WsCriticalSegment *seg;
  const WsThread *t;
  g_autofree char *d = NULL;
  g_autofree char *at = NULL;

  g_return_val_if_fail (WS_IS_CRITICAL_PATH_VIEW (self), NULL);

  if (segment >= n_segments (self))
    return g_strdup ("");
  seg = ws_critical_path_get_segment (path (self), segment);
  t = ws_trace_get_thread (ws_critical_path_get_trace (path (self)), seg->thread);
  d = ws_format_duration (seg->end - seg->start);
  at = ws_format_duration (seg->start - ws_critical_path_get_symptom (path (self))->t0);
  /* Translators: a critical path segment: thread, tid, state, duration,
   * offset from the start of the window */
  return g_strdup_printf (_("%s · %d: %s for %s, at +%s"), t->name ? t->name : "?", t->tid,
                          ws_critical_path_segment_label (path (self), segment), d, at);
}

static void
update_accessible (WsCriticalPathView *self)
{
  g_autofree char *desc = NULL;
  guint selected = ws_critical_path_renderer_get_selected (self->renderer);

  if (path (self) == NULL)
    desc = g_strdup (_("Nothing to show yet"));
  else
    {
      g_autofree char *state_times = ws_critical_path_dup_state_summary (path (self));
      g_autofree char *behind = ws_critical_path_dup_behind (path (self));
      g_autofree char *states = behind != NULL ? g_strdup_printf ("%s. %s", state_times, behind)
                                               : g_strdup (state_times);
      g_autofree char *threads = ws_critical_path_dup_thread_summary (path (self), 4);

      if (selected != WS_NONE)
        {
          g_autofree char *seg = ws_critical_path_view_dup_segment_text (self, selected);
          /* Translators: accessible description of the critical path:
           * time per thread, per state, then the selected segment */
          desc = g_strdup_printf (_("%s. %s. Selected: %s"), threads, states, seg);
        }
      else
        desc = g_strdup_printf ("%s. %s.", threads, states);
    }
  gtk_accessible_update_property (GTK_ACCESSIBLE (self),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, _("Critical path"),
                                  GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, desc,
                                  -1);
}

/* ------------------------------------------------------------------ */
/* Zoom and pan                                                         */

static void
set_visible (WsCriticalPathView *self,
             WsTime              begin,
             WsTime              end)
{
  WsTime b0, e0;

  ws_critical_path_renderer_get_visible (self->renderer, &b0, &e0);
  ws_critical_path_renderer_set_visible (self->renderer, begin, end);
  ws_critical_path_renderer_get_visible (self->renderer, &begin, &end);
  if (begin == b0 && end == e0)
    return;
  gtk_widget_queue_draw (GTK_WIDGET (self));
  if (end - begin != e0 - b0)
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_ZOOM]);
}

/* Zooms time by @factor (> 1 in) keeping the time under @x in place. */
static void
zoom_about (WsCriticalPathView *self,
            double              factor,
            double              x)
{
  double width = gtk_widget_get_width (GTK_WIDGET (self));
  WsTime begin, end, anchor;
  double span;

  if (path (self) == NULL || factor <= 0)
    return;
  ws_critical_path_renderer_get_visible (self->renderer, &begin, &end);
  anchor = ws_critical_path_renderer_x_to_time (self->renderer, width, x);
  anchor = CLAMP (anchor, begin, end);
  span = (double) (end - begin) / factor;
  set_visible (self,
               anchor - (WsTime) llround ((double) (anchor - begin) / factor),
               anchor - (WsTime) llround ((double) (anchor - begin) / factor) + (WsTime) llround (span));
}

static void
pan_by (WsCriticalPathView *self,
        WsTime              delta)
{
  WsTime begin, end;

  ws_critical_path_renderer_get_visible (self->renderer, &begin, &end);
  set_visible (self, begin + delta, end + delta);
}

void
ws_critical_path_view_zoom (WsCriticalPathView *self,
                            double              factor)
{
  g_return_if_fail (WS_IS_CRITICAL_PATH_VIEW (self));
  zoom_about (self, factor, gtk_widget_get_width (GTK_WIDGET (self)) / 2.0 +
              ws_critical_path_renderer_get_geometry (self->renderer)->label_width / 2);
}

/* Returns: the window's length over the length shown (1 = all of it). */
double
ws_critical_path_view_get_zoom (WsCriticalPathView *self)
{
  WsTime begin, end;
  const WsSymptom *s;

  g_return_val_if_fail (WS_IS_CRITICAL_PATH_VIEW (self), 1);

  if (path (self) == NULL)
    return 1;
  s = ws_critical_path_get_symptom (path (self));
  ws_critical_path_renderer_get_visible (self->renderer, &begin, &end);
  return end > begin ? (double) (s->t1 - s->t0) / (double) (end - begin) : 1;
}

void
ws_critical_path_view_fit (WsCriticalPathView *self)
{
  const WsSymptom *s;

  g_return_if_fail (WS_IS_CRITICAL_PATH_VIEW (self));

  if (path (self) == NULL)
    return;
  s = ws_critical_path_get_symptom (path (self));
  set_visible (self, s->t0, s->t1);
}

/**
 * ws_critical_path_view_reveal_segment:
 *
 * Pans time so that @segment shows (centred if it was out of sight, its
 * start at the left if it is longer than the span shown), and scrolls the
 * lanes to its thread.
 */
void
ws_critical_path_view_reveal_segment (WsCriticalPathView *self,
                                      guint               segment)
{
  const WsCriticalSegment *seg;
  WsTime begin, end, span;
  GtkWidget *scrolled;

  g_return_if_fail (WS_IS_CRITICAL_PATH_VIEW (self));

  if (segment >= n_segments (self))
    return;
  seg = ws_critical_path_get_segment (path (self), segment);
  ws_critical_path_renderer_get_visible (self->renderer, &begin, &end);
  span = end - begin;
  if (seg->end - seg->start >= span)
    set_visible (self, seg->start, seg->start + span);
  else if (seg->start < begin || seg->end > end)
    {
      WsTime mid = seg->start + (seg->end - seg->start) / 2;
      set_visible (self, mid - span / 2, mid - span / 2 + span);
    }

  scrolled = gtk_widget_get_ancestor (GTK_WIDGET (self), GTK_TYPE_SCROLLED_WINDOW);
  if (scrolled != NULL)
    {
      GtkAdjustment *adj = gtk_scrolled_window_get_vadjustment (GTK_SCROLLED_WINDOW (scrolled));
      guint lane = ws_critical_path_renderer_get_thread_lane (self->renderer, seg->thread);
      double y, h;

      ws_critical_path_renderer_get_bar_extents (self->renderer, lane, &y, &h);
      gtk_adjustment_clamp_page (adj, y - 20, y + h + 20);
    }
}

/* ------------------------------------------------------------------ */
/* Public API                                                           */

GtkWidget *
ws_critical_path_view_new (void)
{
  return g_object_new (WS_TYPE_CRITICAL_PATH_VIEW, NULL);
}

/**
 * ws_critical_path_view_set_path:
 * @path: (nullable):
 *
 * Shows @path over its whole window, nothing selected.
 */
void
ws_critical_path_view_set_path (WsCriticalPathView *self,
                                WsCriticalPath     *path)
{
  GtkWidget *scrolled;

  g_return_if_fail (WS_IS_CRITICAL_PATH_VIEW (self));
  g_return_if_fail (path == NULL || WS_IS_CRITICAL_PATH (path));

  ws_critical_path_renderer_set_path (self->renderer, path);
  gtk_widget_queue_resize (GTK_WIDGET (self));
  /* A new path starts at its title, not where the last one was scrolled. */
  scrolled = gtk_widget_get_ancestor (GTK_WIDGET (self), GTK_TYPE_SCROLLED_WINDOW);
  if (scrolled != NULL)
    gtk_adjustment_set_value (gtk_scrolled_window_get_vadjustment (GTK_SCROLLED_WINDOW (scrolled)), 0);
  update_accessible (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_PATH]);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SELECTED_SEGMENT]);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_ZOOM]);
}

/* Returns: (transfer none) (nullable): */
WsCriticalPath *
ws_critical_path_view_get_path (WsCriticalPathView *self)
{
  g_return_val_if_fail (WS_IS_CRITICAL_PATH_VIEW (self), NULL);
  return path (self);
}

/* Returns: (transfer none): */
WsCriticalPathRenderer *
ws_critical_path_view_get_renderer (WsCriticalPathView *self)
{
  g_return_val_if_fail (WS_IS_CRITICAL_PATH_VIEW (self), NULL);
  return self->renderer;
}

/**
 * ws_critical_path_view_set_selected_segment:
 * @segment: a segment index, or %WS_NONE
 */
void
ws_critical_path_view_set_selected_segment (WsCriticalPathView *self,
                                            guint               segment)
{
  g_return_if_fail (WS_IS_CRITICAL_PATH_VIEW (self));

  if (segment >= n_segments (self))
    segment = WS_NONE;
  if (segment == ws_critical_path_renderer_get_selected (self->renderer))
    return;
  ws_critical_path_renderer_set_selected (self->renderer, segment);
  gtk_widget_queue_draw (GTK_WIDGET (self));
  update_accessible (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SELECTED_SEGMENT]);
}

guint
ws_critical_path_view_get_selected_segment (WsCriticalPathView *self)
{
  g_return_val_if_fail (WS_IS_CRITICAL_PATH_VIEW (self), WS_NONE);
  return ws_critical_path_renderer_get_selected (self->renderer);
}

/**
 * ws_critical_path_view_set_matches:
 * @matches: (nullable) (element-type guint): segments to highlight
 */
void
ws_critical_path_view_set_matches (WsCriticalPathView *self,
                                   GArray             *matches)
{
  g_return_if_fail (WS_IS_CRITICAL_PATH_VIEW (self));
  ws_critical_path_renderer_set_matches (self->renderer, matches);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

guint
ws_critical_path_view_segment_at (WsCriticalPathView *self,
                                  double              x,
                                  double              y)
{
  g_return_val_if_fail (WS_IS_CRITICAL_PATH_VIEW (self), WS_NONE);
  return ws_critical_path_renderer_segment_at (self->renderer, gtk_widget_get_width (GTK_WIDGET (self)), x, y);
}

/* ------------------------------------------------------------------ */
/* Input                                                                */

static void
select_and_reveal (WsCriticalPathView *self,
                   guint               segment)
{
  ws_critical_path_view_set_selected_segment (self, segment);
  ws_critical_path_view_reveal_segment (self, segment);
}

/* The path's own keys (zoom and Enter are the shared navigation's):
 * Left / Right step through the segments, with Ctrl they pan. */
static gboolean
nav_key_pressed (GtkWidget       *widget,
                 guint            keyval,
                 GdkModifierType  state)
{
  WsCriticalPathView *self = WS_CRITICAL_PATH_VIEW (widget);
  guint n = n_segments (self), sel = ws_critical_path_renderer_get_selected (self->renderer);
  gboolean ctrl = (state & GDK_CONTROL_MASK) != 0;
  WsTime begin, end;

  if (n == 0)
    return FALSE;
  ws_critical_path_renderer_get_visible (self->renderer, &begin, &end);

  switch (keyval)
    {
    case GDK_KEY_Left:
    case GDK_KEY_KP_Left:
      if (ctrl)
        pan_by (self, -(WsTime) ((end - begin) * PAN_FRACTION));
      else
        select_and_reveal (self, sel == WS_NONE ? n - 1 : sel > 0 ? sel - 1 : 0);
      return TRUE;
    case GDK_KEY_Right:
    case GDK_KEY_KP_Right:
      if (ctrl)
        pan_by (self, (WsTime) ((end - begin) * PAN_FRACTION));
      else
        select_and_reveal (self, sel == WS_NONE ? 0 : MIN (sel + 1, n - 1));
      return TRUE;
    case GDK_KEY_Home:
      select_and_reveal (self, 0);
      return TRUE;
    case GDK_KEY_End:
      select_and_reveal (self, n - 1);
      return TRUE;
    case GDK_KEY_0:
    case GDK_KEY_KP_0:
    case GDK_KEY_f:
    case GDK_KEY_F:
      ws_critical_path_view_fit (self);
      return TRUE;
    default:
      return FALSE;
    }
}

/* ------------------------------------------------------------------ */
/* The shared navigation's hooks (ws-view-gestures.h)                   */

static gboolean
nav_has_content (GtkWidget *widget)
{
  return n_segments (WS_CRITICAL_PATH_VIEW (widget)) > 0;
}

static guint
nav_item_at (GtkWidget *widget,
             double     x,
             double     y)
{
  return ws_critical_path_view_segment_at (WS_CRITICAL_PATH_VIEW (widget), x, y);
}

static guint
nav_get_selected (GtkWidget *widget)
{
  return ws_critical_path_renderer_get_selected (WS_CRITICAL_PATH_VIEW (widget)->renderer);
}

static void
nav_select (GtkWidget *widget,
            guint      segment)
{
  ws_critical_path_view_set_selected_segment (WS_CRITICAL_PATH_VIEW (widget), segment);
}

static void
nav_activate (GtkWidget *widget,
              guint      segment)
{
  g_signal_emit (widget, signals[SEGMENT_ACTIVATED], 0, segment);
}

static char *
nav_dup_tooltip (GtkWidget *widget,
                 guint      segment)
{
  WsCriticalPathView *self = WS_CRITICAL_PATH_VIEW (widget);
  g_autofree char *text = ws_critical_path_view_dup_segment_text (self, segment);
  const WsCriticalSegment *seg;
  g_autofree char *explain = NULL;

  if (segment >= n_segments (self))
    return g_steal_pointer (&text);
  seg = ws_critical_path_get_segment (path (self), segment);
  /* a blocked segment's word, defined as the glossary defines it */
  if (seg->state == WS_CRITICAL_BLOCKED_HARDWARE || seg->state == WS_CRITICAL_BLOCKED_UNKNOWN)
    explain = ws_event_format_dup_wake_explain (ws_critical_path_get_trace (path (self)), seg->event);
  if (explain == NULL)
    return g_steal_pointer (&text);
  return g_strdup_printf ("%s\n%s", text, explain);
}

static double
nav_get_zoom (GtkWidget *widget)
{
  return ws_critical_path_view_get_zoom (WS_CRITICAL_PATH_VIEW (widget));
}

static void
nav_zoom (GtkWidget *widget,
          double     factor)
{
  ws_critical_path_view_zoom (WS_CRITICAL_PATH_VIEW (widget), factor);
}

/* Time zooms about @x; the lanes do not zoom. */
static void
nav_zoom_at (GtkWidget *widget,
             double     factor,
             double     x,
             double     y)
{
  zoom_about (WS_CRITICAL_PATH_VIEW (widget), factor, x);
}

static void
nav_drag_begin (GtkWidget *widget)
{
  WsCriticalPathView *self = WS_CRITICAL_PATH_VIEW (widget);

  ws_critical_path_renderer_get_visible (self->renderer, &self->drag_begin, NULL);
}

/* Time follows the pointer; the lanes' scrolled window scrolls them. */
static void
nav_drag_pan (GtkWidget *widget,
              double     dx,
              double     dy)
{
  WsCriticalPathView *self = WS_CRITICAL_PATH_VIEW (widget);
  double width = gtk_widget_get_width (widget);
  WsTime begin, end, delta;

  ws_critical_path_renderer_get_visible (self->renderer, &begin, &end);
  delta = ws_critical_path_renderer_x_to_time (self->renderer, width, dx) -
          ws_critical_path_renderer_x_to_time (self->renderer, width, 0);
  set_visible (self, self->drag_begin - delta, self->drag_begin - delta + (end - begin));
}

static gboolean
nav_scroll_pan (GtkWidget *widget,
                double     dx,
                double     dy,
                gboolean   pixels)
{
  WsCriticalPathView *self = WS_CRITICAL_PATH_VIEW (widget);
  WsTime begin, end;

  if (dx == 0)
    return FALSE;   /* the lanes' scrolled window scrolls */
  ws_critical_path_renderer_get_visible (self->renderer, &begin, &end);
  pan_by (self, (WsTime) (dx * (pixels ? 1.0 / 400 : 0.1) * (end - begin)));
  return TRUE;
}

/* ------------------------------------------------------------------ */
/* GtkWidget                                                            */

static void
update_style (WsCriticalPathView *self)
{
  WsTimelinePalette palette;
  PangoContext *pango = gtk_widget_get_pango_context (GTK_WIDGET (self));
  const PangoFontDescription *font = pango_context_get_font_description (pango);

  if (adw_style_manager_get_dark (adw_style_manager_get_default ()))
    ws_timeline_palette_init_dark (&palette);
  else
    ws_timeline_palette_init_light (&palette);
  ws_critical_path_renderer_set_palette (self->renderer, &palette);
  if (font != NULL && pango_font_description_get_family (font) != NULL)
    {
      PangoFontDescription *copy = pango_font_description_copy (font);
      /* The chart's labels a little smaller than the UI's text. */
      if (pango_font_description_get_size (copy) > 0)
        pango_font_description_set_size (copy, MAX (pango_font_description_get_size (copy) * 9 / 10,
                                                     8 * PANGO_SCALE));
      ws_critical_path_renderer_set_font (self->renderer, copy);
      pango_font_description_free (copy);
    }
  gtk_widget_queue_resize (GTK_WIDGET (self));
}

static void
ws_critical_path_view_css_changed (GtkWidget         *widget,
                                   GtkCssStyleChange *change)
{
  GTK_WIDGET_CLASS (ws_critical_path_view_parent_class)->css_changed (widget, change);
  update_style (WS_CRITICAL_PATH_VIEW (widget));
}

static GtkSizeRequestMode
ws_critical_path_view_get_request_mode (GtkWidget *widget)
{
  return GTK_SIZE_REQUEST_HEIGHT_FOR_WIDTH;
}

static void
ws_critical_path_view_measure (GtkWidget      *widget,
                               GtkOrientation  orientation,
                               int             for_size,
                               int            *minimum,
                               int            *natural,
                               int            *minimum_baseline,
                               int            *natural_baseline)
{
  WsCriticalPathView *self = WS_CRITICAL_PATH_VIEW (widget);

  if (orientation == GTK_ORIENTATION_HORIZONTAL)
    {
      *minimum = 360;
      *natural = 900;
    }
  else
    {
      /* Every lane and the legend: the scrolled window around scrolls. */
      double width = for_size > 0 ? for_size : 900;
      *minimum = *natural = path (self) ? (int) ws_critical_path_renderer_measure_height (self->renderer, width)
                                        : 80;
    }
}

static void
ws_critical_path_view_size_allocate (GtkWidget *widget,
                                     int        width,
                                     int        height,
                                     int        baseline)
{
  gtk_widget_queue_draw (widget);
}

static void
ws_critical_path_view_snapshot (GtkWidget   *widget,
                                GtkSnapshot *snapshot)
{
  WsCriticalPathView *self = WS_CRITICAL_PATH_VIEW (widget);
  int width = gtk_widget_get_width (widget);
  int height = gtk_widget_get_height (widget);
  cairo_t *cr;

  if (width <= 0 || height <= 0)
    return;

  cr = gtk_snapshot_append_cairo (snapshot, &GRAPHENE_RECT_INIT (0, 0, width, height));
  ws_critical_path_renderer_draw (self->renderer, cr, width, height);
  cairo_destroy (cr);
  ws_view_append_focus_ring (widget, snapshot);
}

static void
ws_critical_path_view_get_property (GObject    *object,
                                    guint       prop_id,
                                    GValue     *value,
                                    GParamSpec *pspec)
{
  WsCriticalPathView *self = WS_CRITICAL_PATH_VIEW (object);

  switch (prop_id)
    {
    case PROP_PATH:
      g_value_set_object (value, path (self));
      break;
    case PROP_SELECTED_SEGMENT:
      g_value_set_uint (value, ws_critical_path_view_get_selected_segment (self));
      break;
    case PROP_ZOOM:
      g_value_set_double (value, ws_critical_path_view_get_zoom (self));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
ws_critical_path_view_set_property (GObject      *object,
                                    guint         prop_id,
                                    const GValue *value,
                                    GParamSpec   *pspec)
{
  WsCriticalPathView *self = WS_CRITICAL_PATH_VIEW (object);

  switch (prop_id)
    {
    case PROP_PATH:
      ws_critical_path_view_set_path (self, g_value_get_object (value));
      break;
    case PROP_SELECTED_SEGMENT:
      ws_critical_path_view_set_selected_segment (self, g_value_get_uint (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
ws_critical_path_view_finalize (GObject *object)
{
  WsCriticalPathView *self = WS_CRITICAL_PATH_VIEW (object);

  g_clear_object (&self->renderer);

  G_OBJECT_CLASS (ws_critical_path_view_parent_class)->finalize (object);
}

static void
ws_critical_path_view_class_init (WsCriticalPathViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->get_property = ws_critical_path_view_get_property;
  object_class->set_property = ws_critical_path_view_set_property;
  object_class->finalize = ws_critical_path_view_finalize;

  widget_class->get_request_mode = ws_critical_path_view_get_request_mode;
  widget_class->measure = ws_critical_path_view_measure;
  widget_class->size_allocate = ws_critical_path_view_size_allocate;
  widget_class->snapshot = ws_critical_path_view_snapshot;
  widget_class->css_changed = ws_critical_path_view_css_changed;

  properties[PROP_PATH] =
    g_param_spec_object ("path", NULL, NULL, WS_TYPE_CRITICAL_PATH,
                         G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  properties[PROP_SELECTED_SEGMENT] =
    g_param_spec_uint ("selected-segment", NULL, NULL, 0, G_MAXUINT, G_MAXUINT,
                       G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  properties[PROP_ZOOM] =
    g_param_spec_double ("zoom", NULL, NULL, 0, G_MAXDOUBLE, 1,
                         G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  /**
   * WsCriticalPathView::segment-activated:
   * @segment: the segment double-clicked, or chosen with Enter
   */
  signals[SEGMENT_ACTIVATED] =
    g_signal_new ("segment-activated", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 1, G_TYPE_UINT);

  gtk_widget_class_set_css_name (widget_class, "criticalpathview");
  /* A sequence of segments stepped through with Left/Right. */
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_LIST);
}

static void
ws_critical_path_view_init (WsCriticalPathView *self)
{
  static const WsViewNavigation navigation = {
    .has_content = nav_has_content,
    .item_at = nav_item_at,
    .get_selected = nav_get_selected,
    .select = nav_select,
    .activate = nav_activate,
    .dup_tooltip = nav_dup_tooltip,
    .get_zoom = nav_get_zoom,
    .zoom = nav_zoom,
    .zoom_at = nav_zoom_at,
    .drag_begin = nav_drag_begin,
    .drag_pan = nav_drag_pan,
    .scroll_pan = nav_scroll_pan,
    .key_pressed = nav_key_pressed,
    .wheel_zoom_step = WHEEL_ZOOM_STEP,
    .key_zoom_step = KEY_ZOOM_STEP,
    .drag_horizontal = TRUE,
  };

  self->renderer = ws_critical_path_renderer_new ();
  ws_view_navigation_attach (GTK_WIDGET (self), &navigation);

  update_accessible (self);
}
