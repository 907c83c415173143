/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The critical path drawn as a Gantt chart of lanes, one per thread it
 * visits.  A path has one segment per state change along the chain of
 * readiers, usually tens to a few thousand, so every segment of the
 * visible span is drawn (at least one pixel wide, so that a short wake-up
 * hand-off never vanishes), filled state by state with one cairo_fill()
 * each; the connectors where the path changes thread come last so that
 * they stay visible over the bars.
 */
#include "config.h"

#include <glib/gi18n-lib.h>
#include <math.h>
#include <string.h>
#include <pango/pangocairo.h>

#include "ws-critical-path-renderer.h"
#include "ws-render-util.h"
#include "ws-time-format.h"
#include "ws-wake-words.h"

#define LABEL_PAD       8.0
#define MIN_TICK_PX    90.0
#define HIT_TOLERANCE   3.0
#define HIT_MAX_SCAN   256
#define KEY_SWATCH     14.0
#define TITLE_ROW      20.0
#define KEY_ROW        20.0
#define MIN_SPAN       10      /* ns: the deepest zoom */

struct _WsCriticalPathRenderer
{
  GObject                parent_instance;

  WsTimelinePalette      palette;
  WsCriticalPathGeometry geometry;
  WsRenderText           text;

  WsCriticalPath        *path;
  GArray                *lanes;         /* guint thread per lane */
  guint                 *thread_lane;   /* per trace thread, WS_NONE if absent */
  guint                  n_threads;
  WsTime                 begin;
  WsTime                 end;
  guint                  selected;
  guint8                *matches;       /* per segment, or NULL */
  gboolean               label_width_dirty;

  /* Per path, so that a frame does not walk the path for them */
  GArray                *lane_time;     /* WsTime per lane */
};

G_DEFINE_FINAL_TYPE (WsCriticalPathRenderer, ws_critical_path_renderer, G_TYPE_OBJECT)

static void
ws_critical_path_renderer_finalize (GObject *object)
{
  WsCriticalPathRenderer *self = WS_CRITICAL_PATH_RENDERER (object);

  ws_render_text_clear (&self->text);
  g_clear_object (&self->path);
  g_clear_pointer (&self->lanes, g_array_unref);
  g_clear_pointer (&self->thread_lane, g_free);
  g_clear_pointer (&self->matches, g_free);
  g_clear_pointer (&self->lane_time, g_array_unref);

  G_OBJECT_CLASS (ws_critical_path_renderer_parent_class)->finalize (object);
}

static void
ws_critical_path_renderer_class_init (WsCriticalPathRendererClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = ws_critical_path_renderer_finalize;
}

static void
ws_critical_path_renderer_init (WsCriticalPathRenderer *self)
{
  ws_timeline_palette_init_light (&self->palette);
  self->geometry.margin = 12;
  self->geometry.summary_height = 40;
  self->geometry.ruler_height = 28;
  self->geometry.label_width = 220;
  self->geometry.lane_height = 30;
  ws_render_text_init (&self->text, "Sans 9");
  self->lanes = g_array_new (FALSE, FALSE, sizeof (guint));
  self->lane_time = g_array_new (FALSE, FALSE, sizeof (WsTime));
  self->selected = WS_NONE;
}

WsCriticalPathRenderer *
ws_critical_path_renderer_new (void)
{
  return g_object_new (WS_TYPE_CRITICAL_PATH_RENDERER, NULL);
}

/* ------------------------------------------------------------------ */
/* Style                                                                */

void
ws_critical_path_renderer_set_palette (WsCriticalPathRenderer  *self,
                                       const WsTimelinePalette *palette)
{
  g_return_if_fail (WS_IS_CRITICAL_PATH_RENDERER (self));
  g_return_if_fail (palette != NULL);
  self->palette = *palette;
}

const WsTimelinePalette *
ws_critical_path_renderer_get_palette (WsCriticalPathRenderer *self)
{
  g_return_val_if_fail (WS_IS_CRITICAL_PATH_RENDERER (self), NULL);
  return &self->palette;
}

/**
 * ws_critical_path_renderer_set_pango_context:
 * @context: (nullable): a widget's context, to follow the desktop's font
 *   settings; %NULL for one independent of the target
 */
void
ws_critical_path_renderer_set_pango_context (WsCriticalPathRenderer *self,
                                             PangoContext           *context)
{
  g_return_if_fail (WS_IS_CRITICAL_PATH_RENDERER (self));
  if (ws_render_text_set_context (&self->text, context))
    self->label_width_dirty = TRUE;
}

void
ws_critical_path_renderer_set_font (WsCriticalPathRenderer     *self,
                                    const PangoFontDescription *font)
{
  g_return_if_fail (WS_IS_CRITICAL_PATH_RENDERER (self));
  g_return_if_fail (font != NULL);

  if (ws_render_text_set_font (&self->text, font))
    self->label_width_dirty = TRUE;
}

static void ensure_label_width (WsCriticalPathRenderer *self);

/**
 * ws_critical_path_renderer_get_geometry:
 *
 * Returns: where things are; the label column fits the lanes' names and
 *   times of the path shown (within 140 to 300 units)
 */
const WsCriticalPathGeometry *
ws_critical_path_renderer_get_geometry (WsCriticalPathRenderer *self)
{
  g_return_val_if_fail (WS_IS_CRITICAL_PATH_RENDERER (self), NULL);
  ensure_label_width (self);
  return &self->geometry;
}

/* Text whose vertical centre is @y; ellipsized to @max_width if > 0. */
static void
show_text (WsCriticalPathRenderer *self,
           cairo_t                *cr,
           const char             *text,
           double                  x,
           double                  y,
           double                  max_width,
           gboolean                right_aligned,
           gboolean                bold)
{
  ws_render_show_label (cr, ws_render_text_get_scratch (&self->text), self->text.font, text, x, y, max_width,
                        right_aligned, bold, TRUE);
}

static double
text_width_full (WsCriticalPathRenderer *self,
                 const char             *text,
                 gboolean                bold)
{
  PangoLayout *layout = ws_render_text_get_scratch (&self->text);
  int w;

  if (bold)
    {
      PangoFontDescription *font = pango_font_description_copy (self->text.font);
      pango_font_description_set_weight (font, PANGO_WEIGHT_BOLD);
      pango_layout_set_font_description (layout, font);
      pango_font_description_free (font);
    }
  ws_render_measure_text (layout, text, &w, NULL);
  if (bold)
    pango_layout_set_font_description (layout, self->text.font);
  return w;
}

static double
text_width (WsCriticalPathRenderer *self,
            const char             *text)
{
  return text_width_full (self, text, FALSE);
}

/* ------------------------------------------------------------------ */
/* Words and colours                                                    */

/* As the core's summaries name a thread (ws-critical-path.c). */
static char *
thread_name (WsTrace *trace,
             guint    thread)
{
  const WsThread *t = ws_trace_get_thread (trace, thread);
  /* Translators: thread name and thread id */
  return g_strdup_printf (_("%s · %d"), t->name ? t->name : "?", t->tid);
}

/**
 * ws_critical_state_get_colour:
 * @colour: (out): the colour of @state's bars
 *
 * The timeline's colours: running and ready as there; a wait ended by
 * hardware in the disk colour; a wait whose readier is unknown in the
 * colour the timeline gives such waits; no data in the neutral grey.
 */
void
ws_critical_state_get_colour (WsCriticalState          state,
                              const WsTimelinePalette *palette,
                              WsColor                 *colour)
{
  g_return_if_fail (palette != NULL);
  g_return_if_fail (colour != NULL);

  switch (state)
    {
    case WS_CRITICAL_RUNNING:          *colour = palette->states[WS_THREAD_STATE_RUN]; break;
    case WS_CRITICAL_READY:            *colour = palette->states[WS_THREAD_STATE_READY]; break;
    case WS_CRITICAL_BLOCKED_HARDWARE: *colour = palette->states[WS_THREAD_STATE_DISK]; break;
    case WS_CRITICAL_BLOCKED_UNKNOWN:  *colour = palette->states[WS_THREAD_STATE_SLEEP_UNKNOWN]; break;
    case WS_CRITICAL_NO_DATA:
    case WS_N_CRITICAL_STATES:
    default:                           *colour = palette->states[WS_THREAD_STATE_OTHER]; break;
    }
}

/**
 * ws_critical_path_segment_matches:
 *
 * Returns: whether @search matches the wait @segment is in (its event) or
 *   is on behalf of: a stack search highlights the path where it waited in
 *   a matching stack and the readiers' work that ended such waits; an
 *   event search (an inspector finding) the segments of those waits
 */
gboolean
ws_critical_path_segment_matches (WsCriticalPath *path,
                                  guint           segment,
                                  WsStackSearch  *search)
{
  const WsCriticalSegment *seg;

  g_return_val_if_fail (WS_IS_CRITICAL_PATH (path), FALSE);
  g_return_val_if_fail (WS_IS_STACK_SEARCH (search), FALSE);
  g_return_val_if_fail (segment < ws_critical_path_get_n_segments (path), FALSE);

  if (ws_stack_search_get_trace (search) != ws_critical_path_get_trace (path))
    return FALSE;
  seg = ws_critical_path_get_segment (path, segment);
  return (seg->event != WS_NONE && ws_stack_search_matches_event (search, seg->event)) ||
         (seg->on_behalf_of != WS_NONE && ws_stack_search_matches_event (search, seg->on_behalf_of));
}

/* ------------------------------------------------------------------ */
/* The path and its lanes                                               */

typedef struct {
  guint  thread;
  guint  depth;
  WsTime first;
} LaneKey;

static int
compare_lanes (gconstpointer a,
               gconstpointer b,
               gpointer      data)
{
  const LaneKey *x = a, *y = b;
  guint symptom = GPOINTER_TO_UINT (data);

  if ((x->thread == symptom) != (y->thread == symptom))
    return x->thread == symptom ? -1 : 1;
  if (x->depth != y->depth)
    return x->depth < y->depth ? -1 : 1;
  if (x->first != y->first)
    return x->first < y->first ? -1 : 1;
  return x->thread < y->thread ? -1 : x->thread > y->thread;
}

/**
 * ws_critical_path_renderer_set_path:
 * @path: (nullable):
 *
 * Shows @path over its whole window, nothing selected.  Lanes: the
 * symptom thread first, then the other threads by the fewest readier hops
 * that reach them, then by the time the path first reaches them.
 */
void
ws_critical_path_renderer_set_path (WsCriticalPathRenderer *self,
                                    WsCriticalPath         *path)
{
  g_autoptr(GArray) keys = NULL;
  g_autofree guint *key_of = NULL;
  guint n;

  g_return_if_fail (WS_IS_CRITICAL_PATH_RENDERER (self));
  g_return_if_fail (path == NULL || WS_IS_CRITICAL_PATH (path));

  g_set_object (&self->path, path);
  self->label_width_dirty = TRUE;
  g_array_set_size (self->lanes, 0);
  g_array_set_size (self->lane_time, 0);
  g_clear_pointer (&self->thread_lane, g_free);
  g_clear_pointer (&self->matches, g_free);
  self->selected = WS_NONE;
  self->n_threads = 0;
  self->begin = self->end = 0;
  if (path == NULL)
    return;

  self->begin = ws_critical_path_get_symptom (path)->t0;
  self->end = ws_critical_path_get_symptom (path)->t1;
  self->n_threads = ws_trace_get_n_threads (ws_critical_path_get_trace (path));
  self->thread_lane = g_new (guint, MAX (self->n_threads, 1));
  key_of = g_new (guint, MAX (self->n_threads, 1));
  for (guint t = 0; t < self->n_threads; t++)
    self->thread_lane[t] = key_of[t] = WS_NONE;

  keys = g_array_new (FALSE, FALSE, sizeof (LaneKey));
  n = ws_critical_path_get_n_segments (path);
  for (guint i = 0; i < n; i++)
    {
      const WsCriticalSegment *seg = ws_critical_path_get_segment (path, i);

      if (key_of[seg->thread] == WS_NONE)
        {
          LaneKey k = { seg->thread, seg->depth, seg->start };
          key_of[seg->thread] = keys->len;
          g_array_append_val (keys, k);
        }
      else
        {
          LaneKey *k = &g_array_index (keys, LaneKey, key_of[seg->thread]);
          k->depth = MIN (k->depth, seg->depth);
        }
    }
  /* The symptom thread has a lane even when the path never ran on it. */
  {
    guint symptom = ws_critical_path_get_symptom (path)->thread;
    if (symptom < self->n_threads && key_of[symptom] == WS_NONE)
      {
        LaneKey k = { symptom, 0, self->begin };
        g_array_append_val (keys, k);
      }
  }
  g_array_sort_with_data (keys, compare_lanes, GUINT_TO_POINTER (ws_critical_path_get_symptom (path)->thread));
  for (guint l = 0; l < keys->len; l++)
    {
      guint thread = g_array_index (keys, LaneKey, l).thread;
      WsTime time = ws_critical_path_get_thread_time (path, thread);

      g_array_append_val (self->lanes, thread);
      g_array_append_val (self->lane_time, time);
      self->thread_lane[thread] = l;
    }
}

/* Returns: (transfer none) (nullable): */
WsCriticalPath *
ws_critical_path_renderer_get_path (WsCriticalPathRenderer *self)
{
  g_return_val_if_fail (WS_IS_CRITICAL_PATH_RENDERER (self), NULL);
  return self->path;
}

guint
ws_critical_path_renderer_get_n_lanes (WsCriticalPathRenderer *self)
{
  g_return_val_if_fail (WS_IS_CRITICAL_PATH_RENDERER (self), 0);
  return self->lanes->len;
}

guint
ws_critical_path_renderer_get_lane_thread (WsCriticalPathRenderer *self,
                                           guint                   lane)
{
  g_return_val_if_fail (WS_IS_CRITICAL_PATH_RENDERER (self), WS_NONE);
  g_return_val_if_fail (lane < self->lanes->len, WS_NONE);
  return g_array_index (self->lanes, guint, lane);
}

/* Returns: @thread's lane, or %WS_NONE if the path does not visit it. */
guint
ws_critical_path_renderer_get_thread_lane (WsCriticalPathRenderer *self,
                                           guint                   thread)
{
  g_return_val_if_fail (WS_IS_CRITICAL_PATH_RENDERER (self), WS_NONE);
  return thread < self->n_threads && self->thread_lane ? self->thread_lane[thread] : WS_NONE;
}

/**
 * ws_critical_path_renderer_set_visible:
 *
 * Shows the time span [@begin, @end] (clamped to the symptom's window, at
 * least 10 ns long) across the drawing's time axis: the zoom.
 */
void
ws_critical_path_renderer_set_visible (WsCriticalPathRenderer *self,
                                       WsTime                  begin,
                                       WsTime                  end)
{
  const WsSymptom *s;
  WsTime span;

  g_return_if_fail (WS_IS_CRITICAL_PATH_RENDERER (self));

  if (self->path == NULL)
    return;
  s = ws_critical_path_get_symptom (self->path);
  span = MAX (MIN (end - begin, s->t1 - s->t0), MIN (MIN_SPAN, s->t1 - s->t0));
  begin = CLAMP (begin, s->t0, s->t1 - span);
  self->begin = begin;
  self->end = begin + span;
}

void
ws_critical_path_renderer_get_visible (WsCriticalPathRenderer *self,
                                       WsTime                 *begin,
                                       WsTime                 *end)
{
  g_return_if_fail (WS_IS_CRITICAL_PATH_RENDERER (self));
  if (begin)
    *begin = self->begin;
  if (end)
    *end = self->end;
}

void
ws_critical_path_renderer_set_selected (WsCriticalPathRenderer *self,
                                        guint                   segment)
{
  g_return_if_fail (WS_IS_CRITICAL_PATH_RENDERER (self));
  if (self->path == NULL || segment >= ws_critical_path_get_n_segments (self->path))
    segment = WS_NONE;
  self->selected = segment;
}

guint
ws_critical_path_renderer_get_selected (WsCriticalPathRenderer *self)
{
  g_return_val_if_fail (WS_IS_CRITICAL_PATH_RENDERER (self), WS_NONE);
  return self->selected;
}

/**
 * ws_critical_path_renderer_set_matches:
 * @matches: (nullable) (element-type guint): segments to highlight
 */
void
ws_critical_path_renderer_set_matches (WsCriticalPathRenderer *self,
                                       GArray                 *matches)
{
  guint n;

  g_return_if_fail (WS_IS_CRITICAL_PATH_RENDERER (self));

  g_clear_pointer (&self->matches, g_free);
  if (self->path == NULL || matches == NULL || matches->len == 0)
    return;
  n = ws_critical_path_get_n_segments (self->path);
  self->matches = g_new0 (guint8, MAX (n, 1));
  for (guint i = 0; i < matches->len; i++)
    if (g_array_index (matches, guint, i) < n)
      self->matches[g_array_index (matches, guint, i)] = 1;
}

/* ------------------------------------------------------------------ */
/* Geometry                                                             */

/* The label column: as wide as the widest lane label (the name, bold on
 * the symptom's lane, then the time on the path), within bounds. */
static void
ensure_label_width (WsCriticalPathRenderer *self)
{
  double widest = 0;

  if (!self->label_width_dirty)
    return;
  self->label_width_dirty = FALSE;
  for (guint l = 0; self->path && l < self->lanes->len; l++)
    {
      guint thread = g_array_index (self->lanes, guint, l);
      g_autofree char *name = thread_name (ws_critical_path_get_trace (self->path), thread);
      g_autofree char *time = ws_format_duration (g_array_index (self->lane_time, WsTime, l));
      double w = text_width_full (self, name, l == 0) + text_width (self, time);

      widest = MAX (widest, w);
    }
  self->geometry.label_width = CLAMP (ceil (widest + 4 * LABEL_PAD), 140, 300);
}

static double
axis_x (WsCriticalPathRenderer *self)
{
  ensure_label_width (self);
  return self->geometry.margin + self->geometry.label_width;
}

static double
axis_width (WsCriticalPathRenderer *self,
            double                  width)
{
  return MAX (width - axis_x (self) - self->geometry.margin, 1);
}

static double
lanes_y (WsCriticalPathRenderer *self)
{
  return self->geometry.margin + self->geometry.summary_height + self->geometry.ruler_height;
}

double
ws_critical_path_renderer_time_to_x (WsCriticalPathRenderer *self,
                                     double                  width,
                                     WsTime                  time)
{
  g_return_val_if_fail (WS_IS_CRITICAL_PATH_RENDERER (self), 0);

  if (self->end <= self->begin)
    return axis_x (self);
  return axis_x (self) + (double) (time - self->begin) / (double) (self->end - self->begin) * axis_width (self, width);
}

WsTime
ws_critical_path_renderer_x_to_time (WsCriticalPathRenderer *self,
                                     double                  width,
                                     double                  x)
{
  g_return_val_if_fail (WS_IS_CRITICAL_PATH_RENDERER (self), 0);
  return self->begin + (WsTime) llround ((x - axis_x (self)) / axis_width (self, width) *
                                         (double) (self->end - self->begin));
}

/**
 * ws_critical_path_renderer_get_bar_extents:
 * @y: (out): top of the bars of @lane
 * @height: (out): their height
 */
void
ws_critical_path_renderer_get_bar_extents (WsCriticalPathRenderer *self,
                                           guint                   lane,
                                           double                 *y,
                                           double                 *height)
{
  g_return_if_fail (WS_IS_CRITICAL_PATH_RENDERER (self));
  ws_timeline_row_bar_extents (lanes_y (self) + lane * self->geometry.lane_height,
                               self->geometry.lane_height, y, height);
}

/* Returns: the lane under @y, or %WS_NONE */
guint
ws_critical_path_renderer_lane_at (WsCriticalPathRenderer *self,
                                   double                  y)
{
  double top;

  g_return_val_if_fail (WS_IS_CRITICAL_PATH_RENDERER (self), WS_NONE);

  top = lanes_y (self);
  if (y < top || y >= top + self->lanes->len * self->geometry.lane_height)
    return WS_NONE;
  return (guint) ((y - top) / self->geometry.lane_height);
}

/* The segment covering @time (segments touch and are in time order). */
static guint
segment_at_time (WsCriticalPath *path,
                 WsTime          time)
{
  guint lo = 0, hi = ws_critical_path_get_n_segments (path);
  const WsCriticalSegment *segs = ws_critical_path_get_segments (path);

  if (hi == 0)
    return WS_NONE;
  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;
      if (segs[mid].end <= time)
        lo = mid + 1;
      else
        hi = mid;
    }
  return MIN (lo, ws_critical_path_get_n_segments (path) - 1);
}

/**
 * ws_critical_path_renderer_segment_at:
 *
 * Returns: the segment whose bar is under (@x, @y) of a drawing @width
 *   wide, within a few pixels for very short ones, or %WS_NONE
 */
guint
ws_critical_path_renderer_segment_at (WsCriticalPathRenderer *self,
                                      double                  width,
                                      double                  x,
                                      double                  y)
{
  const WsCriticalSegment *segs;
  guint lane, thread, n, centre, best = WS_NONE;
  double best_distance = HIT_TOLERANCE + 1;

  g_return_val_if_fail (WS_IS_CRITICAL_PATH_RENDERER (self), WS_NONE);

  if (self->path == NULL || x < axis_x (self) - HIT_TOLERANCE)
    return WS_NONE;
  lane = ws_critical_path_renderer_lane_at (self, y);
  if (lane == WS_NONE)
    return WS_NONE;
  thread = g_array_index (self->lanes, guint, lane);
  segs = ws_critical_path_get_segments (self->path);
  n = ws_critical_path_get_n_segments (self->path);
  centre = segment_at_time (self->path, ws_critical_path_renderer_x_to_time (self, width, x));
  if (centre == WS_NONE)
    return WS_NONE;

  /* Look both ways from the segment under the pointer's time for the
   * nearest bar of this lane. */
  for (int dir = -1; dir <= 1; dir += 2)
    for (guint k = 0; k < HIT_MAX_SCAN; k++)
      {
        gint64 i = (gint64) centre + dir * (gint64) k;
        double x0, x1, d;

        if (i < 0 || i >= n || (dir > 0 && k == 0))
          {
            if (i < 0 || i >= n)
              break;
            continue;
          }
        x0 = ws_critical_path_renderer_time_to_x (self, width, segs[i].start);
        x1 = MAX (ws_critical_path_renderer_time_to_x (self, width, segs[i].end), x0 + 1);
        d = x < x0 ? x0 - x : x > x1 ? x - x1 : 0;
        if (d > HIT_TOLERANCE)
          break;
        if (segs[i].thread == thread && d < best_distance)
          {
            best_distance = d;
            best = (guint) i;
          }
      }
  return best;
}

/* ------------------------------------------------------------------ */
/* Drawing                                                              */

/* One item of the key: a swatch of @state's colour (or, for the
 * connector, a small arrow) and @label.  Returns its width. */
static double
draw_key_item (WsCriticalPathRenderer *self,
               cairo_t                *cr,
               gboolean                connector,
               WsCriticalState         state,
               const char             *label,
               double                  x,
               double                  y)
{
  double text_x = x + KEY_SWATCH + 5;

  if (connector)
    {
      ws_render_set_source (cr, &self->palette.arrow);
      cairo_rectangle (cr, x + 6, y - 6, 2, 9);
      cairo_fill (cr);
      cairo_move_to (cr, x + 7, y + 7);
      cairo_line_to (cr, x + 3, y + 2);
      cairo_line_to (cr, x + 11, y + 2);
      cairo_close_path (cr);
      cairo_fill (cr);
    }
  else
    {
      WsColor c;

      ws_critical_state_get_colour (state, &self->palette, &c);
      ws_render_set_source (cr, &c);
      cairo_rectangle (cr, x, floor (y) - 5, KEY_SWATCH, 10);
      cairo_fill (cr);
    }
  ws_render_set_source (cr, &self->palette.dim_foreground);
  show_text (self, cr, label, text_x, y, 0, FALSE, FALSE);
  return KEY_SWATCH + 5 + text_width (self, label);
}

/* How much a key item says: a level the row is too narrow for drops
 * words, never a state. */
typedef enum {
  KEY_FULL,      /* "Ready, waiting for a CPU 13.7 ms (31 %)" */
  KEY_SHARE,     /* "Ready 31 %" */
  KEY_NAME,      /* "Ready" */
} KeyLevel;

/* The time of @state's segments that were uninterruptible waits (disk). */
static WsTime
path_disk_time (WsCriticalPathRenderer *self,
                WsCriticalState         state)
{
  WsTime t = 0;

  for (guint i = 0; i < ws_critical_path_get_n_segments (self->path); i++)
    {
      const WsCriticalSegment *seg = ws_critical_path_get_segment (self->path, i);
      if (seg->state == state && ws_critical_path_segment_is_disk (self->path, i))
        t += seg->end - seg->start;
    }
  return t;
}

static char *
key_label (WsCriticalPathRenderer *self,
           WsCriticalState         st,
           KeyLevel                level)
{
  /* The states' names where room is short (the legend's, the timeline
   * says "Ready" too). */
  const char * const short_names[WS_N_CRITICAL_STATES] = {
    _("Running"), _("Ready"), ws_wake_word_label (WS_WAKE_WORD_INTERRUPT), ws_wake_word_label (WS_WAKE_WORD_UNKNOWN),
    _("No data"),
  };
  const WsSymptom *s = ws_critical_path_get_symptom (self->path);
  WsTime t = ws_critical_path_get_state_time (self->path, st);
  double share = s->t1 > s->t0 ? 100.0 * t / (s->t1 - s->t0) : 0.0;
  g_autofree char *d = NULL;

  if (st == WS_N_CRITICAL_STATES)
    return g_strdup (level == KEY_FULL ? _("path to the readier and back") : _("to the readier"));
  if (level == KEY_NAME)
    return g_strdup (short_names[st]);
  if (level == KEY_SHARE)
    /* Translators: the critical path's key where room is short: state, share */
    return g_strdup_printf (_("%s %.0f %%"), short_names[st], share);
  d = ws_format_duration (t);
  if (st == WS_CRITICAL_READY)
    /* Translators: the key of the critical path: waiting for CPUs others
     * held, its time, its share */
    return g_strdup_printf (_("CPU contention %s (%.0f %%)"), d, share);
  if (st == WS_CRITICAL_BLOCKED_HARDWARE || st == WS_CRITICAL_BLOCKED_UNKNOWN)
    {
      WsTime disk = path_disk_time (self, st);

      if (disk > 0)
        {
          g_autofree char *dd = ws_format_duration (disk);
          /* Translators: the key of the critical path: a blocked state,
           * its time, its share, and how much of it was the threads'
           * own uninterruptible I/O */
          return g_strdup_printf (_("%s %s (%.0f %%), of it disk %s"), ws_critical_state_get_label (st), d, share, dd);
        }
    }
  /* Translators: the key of the critical path: state, its time, its share */
  return g_strdup_printf (_("%s %s (%.0f %%)"), ws_critical_state_get_label (st), d, share);
}

/* The key under the title at @level: each state the path spends time in,
 * with its colour (the legend and the time per state in one), then the
 * connectors if @connector, flowing onto more rows where one is too
 * narrow.  Returns the rows; draws them if @cr is given. */
static guint
key_flow (WsCriticalPathRenderer *self,
          cairo_t                *cr,
          KeyLevel                level,
          gboolean                connector,
          double                  x0,
          double                  y0,
          double                  width)
{
  double x = x0;
  guint rows = 1;

  for (WsCriticalState st = 0; st <= WS_N_CRITICAL_STATES; st++)
    {
      gboolean is_connector = st == WS_N_CRITICAL_STATES;
      g_autofree char *label = NULL;
      double need;

      if (is_connector ? !connector : ws_critical_path_get_state_time (self->path, st) <= 0)
        continue;
      label = key_label (self, st, level);
      need = KEY_SWATCH + 5 + text_width (self, label);
      if (x > x0 && x + need > x0 + width)
        {
          rows++;
          x = x0;
        }
      if (cr != NULL)
        draw_key_item (self, cr, is_connector, st, label, x, y0 + (rows - 0.5) * KEY_ROW);
      x += need + 16;
    }
  return rows;
}

/* The most the key can say in one row at @width: all of it; the states'
 * short names with their shares; without the connectors; the names only;
 * else the names on as many rows as they need.  At 720 px high a legend
 * under the lanes took the rows the chart needed (issue 13): the key
 * takes one row where it can. */
static guint
choose_key (WsCriticalPathRenderer *self,
            double                  width,
            KeyLevel               *level,
            gboolean               *connector)
{
  static const struct { KeyLevel level; gboolean connector; } tries[] = {
    { KEY_FULL, TRUE }, { KEY_SHARE, TRUE }, { KEY_SHARE, FALSE }, { KEY_NAME, FALSE },
  };

  for (guint i = 0; i < G_N_ELEMENTS (tries); i++)
    {
      *level = tries[i].level;
      *connector = tries[i].connector;
      if (key_flow (self, NULL, *level, *connector, 0, 0, width) == 1)
        return 1;
    }
  return key_flow (self, NULL, *level, *connector, 0, 0, width);
}

/* The title's row and the key's rows at @width: the lanes start under
 * them, so the geometry follows. */
static void
update_summary_height (WsCriticalPathRenderer *self,
                       double                  width)
{
  KeyLevel level;
  gboolean connector;

  if (self->path != NULL)
    self->geometry.summary_height = TITLE_ROW + KEY_ROW * choose_key (self, width - 2 * self->geometry.margin,
                                                                      &level, &connector);
}

static void
draw_summary (WsCriticalPathRenderer *self,
              cairo_t                *cr,
              double                  width)
{
  const WsSymptom *s = ws_critical_path_get_symptom (self->path);
  WsTrace *trace = ws_critical_path_get_trace (self->path);
  double x = self->geometry.margin, w = width - 2 * self->geometry.margin;
  double y = self->geometry.margin;
  guint n = ws_critical_path_get_n_segments (self->path);
  g_autofree char *who = thread_name (trace, s->thread);
  g_autofree char *span = ws_format_duration (s->t1 - s->t0);
  g_autofree char *title = NULL;
  KeyLevel level;
  gboolean connector;

  /* Translators: title of the critical path figure: thread, window
   * length, number of segments, number of threads */
  title = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                        "Critical path of %s over %s: %u segment on %u thread",
                                        "Critical path of %s over %s: %u segments on %u threads", n),
                           who, span, n, self->lanes->len);
  /* The time per thread is in the lanes' labels: no line of its own. */
  ws_render_set_source (cr, &self->palette.foreground);
  show_text (self, cr, title, x, y + TITLE_ROW / 2, w, FALSE, TRUE);
  choose_key (self, w, &level, &connector);
  key_flow (self, cr, level, connector, x, y + TITLE_ROW, w);
}

static void
draw_ruler (WsCriticalPathRenderer *self,
            cairo_t                *cr,
            double                  width,
            double                  lanes_bottom)
{
  const WsSymptom *s = ws_critical_path_get_symptom (self->path);
  double ox = axis_x (self), aw = axis_width (self, width);
  double top = self->geometry.margin + self->geometry.summary_height;
  double rh = self->geometry.ruler_height;
  double ns_per_px = (double) (self->end - self->begin) / aw;
  double last_right = -G_MAXDOUBLE;
  WsTickStep tick;
  WsTime first;
  g_autofree char *shown = NULL;
  g_autofree char *corner = NULL;

  ws_tick_step_compute (&tick, MAX (ns_per_px, 1e-3), MIN_TICK_PX, s->t1 - s->t0);

  ws_render_set_source (cr, &self->palette.header_background);
  cairo_rectangle (cr, self->geometry.margin, top, width - 2 * self->geometry.margin, rh);
  cairo_fill (cr);

  /* Grid lines through the lanes at the labelled ticks, minor ticks on
   * the ruler.  Times read from the start of the window. */
  first = s->t0 + ((self->begin - s->t0) / tick.minor) * tick.minor;
  cairo_set_line_width (cr, 1);
  ws_render_set_source (cr, &self->palette.dim_foreground);
  for (WsTime t = first; t <= self->end; t += tick.minor)
    {
      double x = floor (ws_critical_path_renderer_time_to_x (self, width, t)) + 0.5;
      gboolean major = (t - s->t0) % tick.step == 0;

      if (x < ox || x > ox + aw + 1)
        continue;
      cairo_move_to (cr, x, top + rh - (major ? 9 : 4));
      cairo_line_to (cr, x, top + rh);
    }
  cairo_stroke (cr);

  ws_render_set_source (cr, &self->palette.grid);
  first = s->t0 + ((self->begin - s->t0) / tick.step) * tick.step;
  for (WsTime t = first; t <= self->end; t += tick.step)
    {
      double x = floor (ws_critical_path_renderer_time_to_x (self, width, t)) + 0.5;
      if (x < ox || x > ox + aw + 1)
        continue;
      cairo_move_to (cr, x, top + rh);
      cairo_line_to (cr, x, lanes_bottom);
    }
  cairo_stroke (cr);

  cairo_save (cr);
  cairo_rectangle (cr, ox, top, aw + self->geometry.margin, rh);
  cairo_clip (cr);
  ws_render_set_source (cr, &self->palette.foreground);
  for (WsTime t = first; t <= self->end; t += tick.step)
    {
      double x = floor (ws_critical_path_renderer_time_to_x (self, width, t)) + 4;
      g_autofree char *label = NULL;
      double w;

      if (x < ox + 2)
        continue;
      label = ws_tick_step_format (&tick, t - s->t0);
      w = text_width (self, label);
      /* A label cut by either edge reads as another number ("150 ms" as
       * "50 ms"); one over its neighbour reads as nothing. */
      if (x + w > width - 2 || x < last_right + 8)
        continue;
      show_text (self, cr, label, x, top + rh / 2 - 3, -1, FALSE, FALSE);
      last_right = x + w;
    }
  cairo_restore (cr);

  /* The corner: where the shown span starts within the window. */
  shown = ws_format_duration (self->end - self->begin);
  /* Translators: ruler corner of the critical path: the span shown */
  corner = g_strdup_printf (_("%s shown"), shown);
  ws_render_set_source (cr, &self->palette.dim_foreground);
  show_text (self, cr, corner, ox - LABEL_PAD, top + rh / 2, self->geometry.label_width - 2 * LABEL_PAD,
             TRUE, FALSE);

  ws_render_set_source (cr, &self->palette.separator);
  cairo_rectangle (cr, self->geometry.margin, top + rh - 1, width - 2 * self->geometry.margin, 1);
  cairo_fill (cr);
}

static void
draw_lane_labels (WsCriticalPathRenderer *self,
                  cairo_t                *cr,
                  double                  width)
{
  WsTrace *trace = ws_critical_path_get_trace (self->path);
  double lh = self->geometry.lane_height, top = lanes_y (self);
  double x = self->geometry.margin, ox = axis_x (self);

  for (guint l = 0; l < self->lanes->len; l++)
    {
      guint thread = g_array_index (self->lanes, guint, l);
      double y = top + l * lh;
      g_autofree char *name = thread_name (trace, thread);
      g_autofree char *time = ws_format_duration (g_array_index (self->lane_time, WsTime, l));
      double tw = text_width (self, time);

      if (l % 2 == 1)
        {
          ws_render_set_source (cr, &self->palette.row_alternate);
          cairo_rectangle (cr, x, y, width - 2 * self->geometry.margin, lh);
          cairo_fill (cr);
        }
      ws_render_set_source (cr, &self->palette.foreground);
      show_text (self, cr, name, x + LABEL_PAD, y + lh / 2,
                 self->geometry.label_width - 3 * LABEL_PAD - tw, FALSE, l == 0);
      ws_render_set_source (cr, &self->palette.dim_foreground);
      show_text (self, cr, time, ox - LABEL_PAD, y + lh / 2, -1, TRUE, FALSE);
    }

  ws_render_set_source (cr, &self->palette.separator);
  cairo_rectangle (cr, ox - 1, top, 1, self->lanes->len * lh);
  cairo_fill (cr);
}

/* The pixel columns [x0, x1) of a segment, at least one wide. */
static void
segment_columns (WsCriticalPathRenderer  *self,
                 double                   width,
                 const WsCriticalSegment *seg,
                 double                  *x0,
                 double                  *x1)
{
  double ox = axis_x (self), right = ox + axis_width (self, width);

  *x0 = round (CLAMP (ws_critical_path_renderer_time_to_x (self, width, seg->start), ox, right));
  *x1 = round (CLAMP (ws_critical_path_renderer_time_to_x (self, width, seg->end), ox, right));
  if (*x1 <= *x0)
    *x1 = *x0 + 1;
}

static void
draw_bars (WsCriticalPathRenderer *self,
           cairo_t                *cr,
           double                  width)
{
  const WsCriticalSegment *segs = ws_critical_path_get_segments (self->path);
  guint n = ws_critical_path_get_n_segments (self->path);
  guint first = segment_at_time (self->path, self->begin);

  if (first == WS_NONE)
    return;

  /* Matches first, as a halo behind the bars. */
  if (self->matches != NULL)
    {
      ws_render_set_source (cr, &self->palette.search_match);
      for (guint i = first; i < n && segs[i].start <= self->end; i++)
        if (self->matches[i])
          {
            double x0, x1, by, bh;
            segment_columns (self, width, &segs[i], &x0, &x1);
            ws_critical_path_renderer_get_bar_extents (self, self->thread_lane[segs[i].thread], &by, &bh);
            cairo_rectangle (cr, x0 - 3, by - 4, x1 - x0 + 6, bh + 8);
          }
      cairo_fill (cr);
    }

  /* One pass over the visible segments; per state and lane, one
   * rectangle per run of touching or overlapping pixel columns, so that
   * zoomed out thousands of short segments collapse into a few hundred
   * rectangles, and one fill per state. */
  {
    guint n_lanes = MAX (self->lanes->len, 1);
    g_autofree double *run = g_new (double, 2 * WS_N_CRITICAL_STATES * n_lanes);
    GArray *rects[WS_N_CRITICAL_STATES];

    for (guint k = 0; k < WS_N_CRITICAL_STATES * n_lanes; k++)
      run[2 * k] = run[2 * k + 1] = -1;
    for (WsCriticalState st = 0; st < WS_N_CRITICAL_STATES; st++)
      rects[st] = g_array_new (FALSE, FALSE, sizeof (double) * 3);

    for (guint i = first; i < n && segs[i].start <= self->end; i++)
      {
        guint lane = self->thread_lane[segs[i].thread];
        guint st = MIN (segs[i].state, WS_N_CRITICAL_STATES - 1);
        double *r = &run[2 * (st * n_lanes + lane)];
        double x0, x1;

        if (segs[i].end <= self->begin)
          continue;
        segment_columns (self, width, &segs[i], &x0, &x1);
        if (r[1] >= 0 && x0 <= r[1])
          {
            r[1] = MAX (r[1], x1);
            continue;
          }
        if (r[1] >= 0)
          {
            double rect[3] = { r[0], r[1], lane };
            g_array_append_vals (rects[st], rect, 1);
          }
        r[0] = x0;
        r[1] = x1;
      }

    for (WsCriticalState st = 0; st < WS_N_CRITICAL_STATES; st++)
      {
        WsColor c;

        for (guint l = 0; l < self->lanes->len; l++)
          if (run[2 * (st * n_lanes + l) + 1] >= 0)
            {
              double rect[3] = { run[2 * (st * n_lanes + l)], run[2 * (st * n_lanes + l) + 1], l };
              g_array_append_vals (rects[st], rect, 1);
            }
        for (guint k = 0; k < rects[st]->len; k++)
          {
            const double *rect = (const double *) rects[st]->data + 3 * k;
            double by, bh;

            ws_critical_path_renderer_get_bar_extents (self, (guint) rect[2], &by, &bh);
            cairo_rectangle (cr, rect[0], by, rect[1] - rect[0], bh);
          }
        ws_critical_state_get_colour (st, &self->palette, &c);
        ws_render_set_source (cr, &c);
        cairo_fill (cr);
      }
    for (WsCriticalState st = 0; st < WS_N_CRITICAL_STATES; st++)
      g_array_unref (rects[st]);
  }
}

/* Adds to the path a vertical line at the hand-off time from the lane
 * the path leaves to the lane it continues on (@head = FALSE), or the
 * arrowhead on the latter (@head = TRUE).  The caller fills. */
static void
draw_connector (WsCriticalPathRenderer *self,
                cairo_t                *cr,
                double                  x,
                guint                   from_lane,
                guint                   to_lane,
                gboolean                head)
{
  double fy, fh, ty, th, y0, y1, tip;

  ws_critical_path_renderer_get_bar_extents (self, from_lane, &fy, &fh);
  ws_critical_path_renderer_get_bar_extents (self, to_lane, &ty, &th);
  if (to_lane > from_lane)
    {
      y0 = fy + fh / 2;
      tip = y1 = ty;
    }
  else
    {
      y0 = ty + th;
      y1 = fy + fh / 2;
      tip = y0;
    }
  if (!head)
    {
      cairo_rectangle (cr, x - 1, y0, 2, y1 - y0);
      return;
    }
  /* Arrowhead on the destination bar's edge. */
  cairo_move_to (cr, x, tip);
  if (to_lane > from_lane)
    {
      cairo_line_to (cr, x - 4, tip - 7);
      cairo_line_to (cr, x + 4, tip - 7);
    }
  else
    {
      cairo_line_to (cr, x - 4, tip + 7);
      cairo_line_to (cr, x + 4, tip + 7);
    }
  cairo_close_path (cr);
}

static void
draw_connectors (WsCriticalPathRenderer *self,
                 cairo_t                *cr,
                 double                  width)
{
  const WsCriticalSegment *segs = ws_critical_path_get_segments (self->path);
  guint n = ws_critical_path_get_n_segments (self->path);
  guint first = segment_at_time (self->path, self->begin);
  double ox = axis_x (self), right = ox + axis_width (self, width);

  if (first == WS_NONE)
    return;
  ws_render_set_source (cr, &self->palette.arrow);
  /* Lines, then heads: two fills whatever the number of hand-offs. */
  for (int heads = 0; heads <= 1; heads++)
    {
      double last_head = -G_MAXDOUBLE, last_x = -1;
      guint last_from = WS_NONE, last_to = WS_NONE;

      for (guint i = MAX (first, 1); i < n && segs[i].start <= self->end; i++)
        {
          guint from, to;
          double x;

          if (segs[i].thread == segs[i - 1].thread)
            continue;
          x = round (ws_critical_path_renderer_time_to_x (self, width, segs[i].start));
          if (x < ox || x > right)
            continue;
          from = self->thread_lane[segs[i - 1].thread];
          to = self->thread_lane[segs[i].thread];
          /* The same line in the same pixel column again. */
          if (x == last_x && from == last_from && to == last_to)
            continue;
          last_x = x;
          last_from = from;
          last_to = to;
          if (!heads)
            draw_connector (self, cr, x, from, to, FALSE);
          else if (x - last_head >= 10)
            {
              /* Arrowheads only where they do not pile up: zoomed out, a
               * busy path is a comb of lines, and the heads come back
               * when zooming in. */
              last_head = x;
              draw_connector (self, cr, x, from, to, TRUE);
            }
        }
      cairo_fill (cr);
    }
}

static void
draw_selection (WsCriticalPathRenderer *self,
                cairo_t                *cr,
                double                  width)
{
  const WsCriticalSegment *seg;
  double x0, x1, by, bh;

  if (self->selected == WS_NONE)
    return;
  seg = ws_critical_path_get_segment (self->path, self->selected);
  if (seg->end < self->begin || seg->start > self->end)
    return;
  segment_columns (self, width, seg, &x0, &x1);
  ws_critical_path_renderer_get_bar_extents (self, self->thread_lane[seg->thread], &by, &bh);
  ws_render_set_source (cr, &self->palette.accent);
  cairo_set_line_width (cr, 2);
  cairo_rectangle (cr, x0 - 2, by - 2, x1 - x0 + 4, bh + 4);
  cairo_stroke (cr);
}

/**
 * ws_critical_path_renderer_measure_height:
 *
 * Returns: the height a drawing @width wide needs to show every lane
 */
double
ws_critical_path_renderer_measure_height (WsCriticalPathRenderer *self,
                                          double                  width)
{
  g_return_val_if_fail (WS_IS_CRITICAL_PATH_RENDERER (self), 0);

  update_summary_height (self, width);
  return ceil (lanes_y (self) + MAX (self->lanes->len, 1) * self->geometry.lane_height + self->geometry.margin);
}

/**
 * ws_critical_path_renderer_draw:
 *
 * Draws the whole figure at (0, 0), @width × @height (the lanes that do
 * not fit are cut off: see ws_critical_path_renderer_measure_height()).
 */
void
ws_critical_path_renderer_draw (WsCriticalPathRenderer *self,
                                cairo_t                *cr,
                                double                  width,
                                double                  height)
{
  double lanes_bottom;

  g_return_if_fail (WS_IS_CRITICAL_PATH_RENDERER (self));
  g_return_if_fail (cr != NULL);

  cairo_save (cr);
  ws_render_set_source (cr, &self->palette.background);
  cairo_rectangle (cr, 0, 0, width, height);
  cairo_fill (cr);

  if (self->path == NULL)
    {
      cairo_restore (cr);
      return;
    }

  update_summary_height (self, width);
  lanes_bottom = lanes_y (self) + self->lanes->len * self->geometry.lane_height;
  draw_summary (self, cr, width);
  draw_lane_labels (self, cr, width);
  draw_ruler (self, cr, width, lanes_bottom);

  cairo_save (cr);
  cairo_rectangle (cr, axis_x (self) - HIT_TOLERANCE, lanes_y (self) - 4,
                   axis_width (self, width) + 2 * HIT_TOLERANCE, lanes_bottom - lanes_y (self) + 8);
  cairo_clip (cr);
  draw_bars (self, cr, width);
  draw_connectors (self, cr, width);
  draw_selection (self, cr, width);
  cairo_restore (cr);

  ws_render_set_source (cr, &self->palette.separator);
  cairo_rectangle (cr, self->geometry.margin, lanes_bottom, width - 2 * self->geometry.margin, 1);
  cairo_fill (cr);
  cairo_restore (cr);
}

static void
draw_export (cairo_t  *cr,
             double    width,
             double    height,
             gpointer  user_data)
{
  ws_critical_path_renderer_draw (user_data, cr, width, height);
}

/**
 * ws_critical_path_renderer_export:
 * @width: of the figure; its height fits every lane
 *
 * Writes the figure as it would be drawn now (zoom, selection, matches).
 *
 * Returns: %TRUE if written
 */
gboolean
ws_critical_path_renderer_export (WsCriticalPathRenderer  *self,
                                  const char              *path,
                                  WsExportFormat           format,
                                  double                   width,
                                  GError                 **error)
{
  g_return_val_if_fail (WS_IS_CRITICAL_PATH_RENDERER (self), FALSE);
  g_return_val_if_fail (path != NULL, FALSE);
  g_return_val_if_fail (width >= 1, FALSE);

  return ws_export_draw (path, format, width, ws_critical_path_renderer_measure_height (self, width),
                         draw_export, self, error);
}
