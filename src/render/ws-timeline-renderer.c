/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The timeline is drawn with plain Cairo so that one piece of code serves
 * the screen, PNG/SVG/PDF export and pixel tests.
 *
 * Cost model: a frame touches only the rows inside the visible height and,
 * per row, only the level-of-detail segments inside the visible time span
 * (two binary searches).  Segments narrower than a pixel are accumulated
 * per pixel column and the column gets its dominant state (as Hotspot
 * draws a tick only when the pixel column changes); equal neighbouring
 * columns are merged, and all rectangles of one state are filled with a
 * single cairo_fill(), so the number of Cairo calls does not grow with the
 * number of events.
 */
#include "config.h"

#include <glib/gi18n-lib.h>
#include <math.h>
#include <pango/pangocairo.h>

#include "ws-false-run.h"
#include "ws-render-util.h"
#include "ws-time-format.h"
#include "ws-timeline-fill.h"
#include "ws-timeline-renderer-private.h"
#include "ws-wait-readier.h"

G_DEFINE_FINAL_TYPE (WsTimelineRenderer, ws_timeline_renderer, G_TYPE_OBJECT)

static void
clear_patterns (WsTimelineRenderer *self)
{
  for (guint s = 0; s < WS_N_THREAD_STATES; s++)
    g_clear_pointer (&self->dash[s], cairo_pattern_destroy);
}

static void
clear_labels (WsTimelineRenderer *self)
{
  g_hash_table_remove_all (self->label_cache);
  g_clear_object (&self->text.scratch);
  self->label_trace = NULL;
}

static void
ws_timeline_renderer_finalize (GObject *object)
{
  WsTimelineRenderer *self = WS_TIMELINE_RENDERER (object);

  clear_patterns (self);
  clear_labels (self);
  g_hash_table_unref (self->label_cache);
  ws_render_text_clear (&self->text);
  for (guint s = 0; s < WS_N_THREAD_STATES; s++)
    g_array_unref (self->rects[s]);
  for (guint k = 0; k < WS_N_MARK_KINDS; k++)
    g_array_unref (self->mark_rects[k]);
  g_array_unref (self->match_rects);
  ws_timeline_durations_finalize (self);
  g_clear_object (&self->search);

  G_OBJECT_CLASS (ws_timeline_renderer_parent_class)->finalize (object);
}

static void
ws_timeline_renderer_class_init (WsTimelineRendererClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = ws_timeline_renderer_finalize;
}

static void
ws_timeline_renderer_init (WsTimelineRenderer *self)
{
  ws_timeline_palette_init_light (&self->palette);
  self->geometry.label_width = 220;
  self->geometry.ruler_height = 28;
  self->label_cache = g_hash_table_new_full (g_direct_hash, g_direct_equal, NULL, g_object_unref);
  ws_render_text_init (&self->text, "Sans 9");
  for (guint s = 0; s < WS_N_THREAD_STATES; s++)
    self->rects[s] = g_array_new (FALSE, FALSE, sizeof (WsFillRect));
  for (guint k = 0; k < WS_N_MARK_KINDS; k++)
    self->mark_rects[k] = g_array_new (FALSE, FALSE, sizeof (WsFillRect));
  self->match_rects = g_array_new (FALSE, FALSE, sizeof (WsFillRect));
  ws_timeline_durations_init (self);
}

WsTimelineRenderer *
ws_timeline_renderer_new (void)
{
  return g_object_new (WS_TYPE_TIMELINE_RENDERER, NULL);
}

void
ws_timeline_renderer_set_palette (WsTimelineRenderer      *self,
                                  const WsTimelinePalette *palette)
{
  g_return_if_fail (WS_IS_TIMELINE_RENDERER (self));
  g_return_if_fail (palette != NULL);

  self->palette = *palette;
  clear_patterns (self);
}

const WsTimelinePalette *
ws_timeline_renderer_get_palette (WsTimelineRenderer *self)
{
  g_return_val_if_fail (WS_IS_TIMELINE_RENDERER (self), NULL);
  return &self->palette;
}

/**
 * ws_timeline_renderer_set_pango_context:
 * @context: (nullable): the context text is laid out with (a widget's, to
 *   follow the desktop's font settings); %NULL for a default one
 */
void
ws_timeline_renderer_set_pango_context (WsTimelineRenderer *self,
                                        PangoContext       *context)
{
  g_return_if_fail (WS_IS_TIMELINE_RENDERER (self));

  if (ws_render_text_set_context (&self->text, context))
    clear_labels (self);
}

void
ws_timeline_renderer_set_font (WsTimelineRenderer         *self,
                               const PangoFontDescription *font)
{
  g_return_if_fail (WS_IS_TIMELINE_RENDERER (self));
  g_return_if_fail (font != NULL);

  if (ws_render_text_set_font (&self->text, font))
    clear_labels (self);
}

const WsTimelineGeometry *
ws_timeline_renderer_get_geometry (WsTimelineRenderer *self)
{
  g_return_val_if_fail (WS_IS_TIMELINE_RENDERER (self), NULL);
  return &self->geometry;
}

void
ws_timeline_renderer_set_label_width (WsTimelineRenderer *self,
                                      double              width)
{
  g_return_if_fail (WS_IS_TIMELINE_RENDERER (self));

  width = MAX (round (width), 40);
  if (width == self->geometry.label_width)
    return;
  self->geometry.label_width = width;
  clear_labels (self);
  clear_patterns (self);
}

/**
 * ws_timeline_renderer_set_search:
 * @search: (nullable): matches to highlight
 */
void
ws_timeline_renderer_set_search (WsTimelineRenderer *self,
                                 WsStackSearch      *search)
{
  g_return_if_fail (WS_IS_TIMELINE_RENDERER (self));
  g_set_object (&self->search, search);
}

/* ------------------------------------------------------------------ */
/* Geometry helpers                                                     */

void
ws_timeline_row_bar_extents (double  row_y,
                             double  row_height,
                             double *bar_y,
                             double *bar_height)
{
  double pad = floor (row_height * 0.22);

  *bar_y = row_y + pad;
  *bar_height = row_height - 2 * pad;
}

void
ws_timeline_row_line_extents (double  row_y,
                              double  row_height,
                              double *line_y,
                              double *line_height)
{
  *line_y = row_y + floor (row_height / 2) - 1;
  *line_height = 3;
}

/**
 * ws_timeline_state_dash:
 * @off: (out): pixels off per period
 *
 * Returns: pixels on per period of the state's dash; a solid state (run)
 *   returns 0 and sets @off to 0
 */
guint
ws_timeline_state_dash (WsThreadState  state,
                        guint         *off)
{
  switch (state)
    {
    case WS_THREAD_STATE_RUN:
      *off = 0;
      return 0;
    case WS_THREAD_STATE_READY:
      *off = 2;
      return 2;
    case WS_THREAD_STATE_SLEEP:
    case WS_THREAD_STATE_DISK:
    case WS_THREAD_STATE_OTHER:
      *off = 3;
      return 6;
    case WS_THREAD_STATE_SLEEP_UNKNOWN:
    case WS_THREAD_STATE_DISK_UNKNOWN:
    case WS_THREAD_STATE_OTHER_UNKNOWN:
      /* Dotted: the end of this wait is a guess, see DESIGN.md. */
      *off = 2;
      return 1;
    case WS_N_THREAD_STATES:
    default:
      g_return_val_if_reached (0);
    }
}

/* A one-pixel-high repeating dash, anchored at the time axis' origin so
 * that dashes stand still while the view pans by whole pixels. */
cairo_pattern_t *
ws_timeline_renderer_get_dash (WsTimelineRenderer *self,
                               WsThreadState       state)
{
  if (self->dash[state] == NULL)
    {
      guint off, on = ws_timeline_state_dash (state, &off);
      cairo_surface_t *surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, on + off, 1);
      cairo_t *cr = cairo_create (surface);
      cairo_matrix_t matrix;

      ws_render_set_source (cr, &self->palette.states[state]);
      cairo_rectangle (cr, 0, 0, on, 1);
      cairo_fill (cr);
      cairo_destroy (cr);

      self->dash[state] = cairo_pattern_create_for_surface (surface);
      cairo_surface_destroy (surface);
      cairo_pattern_set_extend (self->dash[state], CAIRO_EXTEND_REPEAT);
      cairo_pattern_set_filter (self->dash[state], CAIRO_FILTER_NEAREST);
      cairo_matrix_init_translate (&matrix, -self->geometry.label_width, 0);
      cairo_pattern_set_matrix (self->dash[state], &matrix);
    }
  return self->dash[state];
}

PangoLayout *
ws_timeline_renderer_get_scratch (WsTimelineRenderer *self)
{
  return ws_render_text_get_scratch (&self->text);
}

static void
show_text (WsTimelineRenderer *self,
           cairo_t            *cr,
           const char         *text,
           double              x,
           double              y,
           double              max_width,
           gboolean            right_aligned,
           gboolean            bold)
{
  ws_render_show_label (cr, ws_timeline_renderer_get_scratch (self), self->text.font, text, x, y, max_width,
                        right_aligned, bold, FALSE);
}

/* ------------------------------------------------------------------ */
/* Labels                                                               */

/* "name  id": the name cut (in the middle, so that "worker-1" and
 * "worker-2" stay apart) until the whole label fits @width, never the id
 * after it: "pylk-main 1…83" had cut the pid itself. */
static char *
fit_label (PangoLayout *layout,
           const char  *name,
           gboolean     bold,
           const char  *suffix_markup,
           const char  *short_suffix_markup,
           double       width)
{
  const char *suffixes[] = { suffix_markup, short_suffix_markup };
  glong n = g_utf8_strlen (name, -1);
  char *markup = NULL;

  /* The whole name with the whole suffix, then with the short one (a
   * process's thread count goes first), then the name cut. */
  for (guint s = 0; s < G_N_ELEMENTS (suffixes); s++)
    for (glong keep = n; keep >= (s == G_N_ELEMENTS (suffixes) - 1 ? 1 : n); keep--)
      {
        g_autofree char *cut = NULL;
        g_autofree char *escaped = NULL;
        int w, h;

        if (keep == n)
          cut = g_strdup (name);
        else
          {
            g_autofree char *head = g_utf8_substring (name, 0, (keep + 1) / 2);
            g_autofree char *tail = g_utf8_substring (name, n - keep / 2, n);
            cut = g_strconcat (head, "…", tail, NULL);
          }
        escaped = g_markup_escape_text (cut, -1);
        g_free (markup);
        markup = g_strdup_printf (bold ? "<b>%s</b>%s" : "%s%s", escaped, suffixes[s]);
        pango_layout_set_markup (layout, markup, -1);
        pango_layout_get_pixel_size (layout, &w, &h);
        if (w <= width)
          return markup;
      }
  /* A column narrower than the id: cut the end. */
  pango_layout_set_width (layout, (int) (width * PANGO_SCALE));
  pango_layout_set_ellipsize (layout, PANGO_ELLIPSIZE_END);
  return markup;
}

static PangoLayout *
get_row_label (WsTimelineRenderer  *self,
               WsTrace             *trace,
               const WsTimelineRow *row,
               gboolean             collapsed)
{
  gpointer key = GUINT_TO_POINTER ((row->index << 2) | (row->kind == WS_TIMELINE_ROW_PROCESS ? 1 : 0) | (collapsed ? 2 : 0));
  PangoLayout *layout;
  g_autofree char *markup = NULL;

  if (self->label_trace != (gconstpointer) trace)
    {
      clear_labels (self);
      self->label_trace = trace;
    }
  if ((layout = g_hash_table_lookup (self->label_cache, key)) != NULL)
    return layout;

  layout = ws_render_text_new_layout (&self->text);

  if (row->kind == WS_TIMELINE_ROW_PROCESS)
    {
      const WsProcess *p = ws_trace_get_process (trace, row->index);
      g_autofree char *pid = ws_format_pid (p->pid);
      /* Translators: process header in the timeline, after its name: pid, thread count */
      g_autofree char *suffix = g_strdup_printf (ngettext ("  <span alpha=\"60%%\">%s · %u thread</span>",
                                                           "  <span alpha=\"60%%\">%s · %u threads</span>",
                                                           p->n_threads), pid, p->n_threads);

      g_autofree char *short_suffix = g_strdup_printf ("  <span alpha=\"60%%\">%s</span>", pid);

      markup = fit_label (layout, p->name ? p->name : _("unknown"), TRUE, suffix, short_suffix,
                          self->geometry.label_width - PROCESS_INDENT - LABEL_PAD);
    }
  else
    {
      const WsThread *t = ws_trace_get_thread (trace, row->index);
      g_autofree char *suffix = g_strdup_printf ("  <span alpha=\"55%%\" font_features=\"tnum\">%d</span>", t->tid);

      markup = fit_label (layout, t->name ? t->name : _("unknown"), FALSE, suffix, suffix,
                          self->geometry.label_width - THREAD_INDENT - LABEL_PAD);
    }
  pango_layout_set_markup (layout, markup, -1);
  g_hash_table_insert (self->label_cache, key, layout);
  return layout;
}

/**
 * ws_timeline_renderer_dup_row_label:
 * @ellipsized: (out) (optional): whether Pango still cut the label
 * @width: (out) (optional): its width in pixels
 *
 * Returns: (transfer full): the text of a row's label as drawn (after a
 *   long name was cut to fit)
 */
char *
ws_timeline_renderer_dup_row_label (WsTimelineRenderer  *self,
                                    WsTrace             *trace,
                                    const WsTimelineRow *row,
                                    gboolean            *ellipsized,
                                    int                 *width)
{
  PangoLayout *layout = get_row_label (self, trace, row, FALSE);
  int h;

  if (ellipsized != NULL)
    *ellipsized = pango_layout_is_ellipsized (layout);
  if (width != NULL)
    pango_layout_get_pixel_size (layout, width, &h);
  return g_strdup (pango_layout_get_text (layout));
}

/* ------------------------------------------------------------------ */
/* Rows                                                                 */

typedef struct {
  WsTimelineRenderer *self;
  double              x0;         /* label width: column 0 is here */
  int                 n_cols;
  float               bar_y, bar_h, line_y, line_h;
  int                 cur_col;
  float               acc[WS_N_THREAD_STATES];  /* pixels × 255 per state */
  int                 rle_state;
  int                 rle_c0, rle_c1;
} RowPainter;

static void
row_emit_rle (RowPainter *rp)
{
  WsFillRect r;
  int c0, c1;

  if (rp->rle_state < 0)
    return;
  c0 = MAX (rp->rle_c0, 0);
  c1 = MIN (rp->rle_c1, rp->n_cols);
  if (c1 > c0)
    {
      r.x = rp->x0 + c0;
      r.w = c1 - c0;
      if (rp->rle_state == WS_THREAD_STATE_RUN)
        {
          r.y = rp->bar_y;
          r.h = rp->bar_h;
        }
      else
        {
          r.y = rp->line_y;
          r.h = rp->line_h;
        }
      g_array_append_val (rp->self->rects[rp->rle_state], r);
    }
  rp->rle_state = -1;
}

static inline void
row_emit_cols (RowPainter *rp,
               int         c0,
               int         c1,
               int         state)
{
  if (state == rp->rle_state && c0 == rp->rle_c1)
    {
      rp->rle_c1 = c1;
      return;
    }
  row_emit_rle (rp);
  rp->rle_state = state;
  rp->rle_c0 = c0;
  rp->rle_c1 = c1;
}

static inline void
row_flush_col (RowPainter *rp)
{
  int best = -1;
  float best_cover = 0;

  if (rp->cur_col == G_MININT)
    return;
  for (int s = 0; s < WS_N_THREAD_STATES; s++)
    {
      if (rp->acc[s] > best_cover)
        {
          best = s;
          best_cover = rp->acc[s];
        }
      rp->acc[s] = 0;
    }
  if (best >= 0)
    row_emit_cols (rp, rp->cur_col, rp->cur_col + 1, best);
  rp->cur_col = G_MININT;
}

/* Adds the state segment [x0, x1) (pixels, clipped) to the row: whole
 * columns as runs, the partial columns at its ends to the accumulators. */
static void
row_add_segment (RowPainter           *rp,
                 const WsStateSegment *seg,
                 double                x0,
                 double                x1)
{
  int s = seg->state;
  int c0 = (int) floor (x0);
  int c1 = (int) floor (x1);

  if (c0 != rp->cur_col)
    {
      row_flush_col (rp);
      rp->cur_col = c0;
    }
  if (seg->mixed)
    {
      /* A coarse bucket: add its mix of states, split between the
       * (at most two) columns it touches. */
      const guint8 *cover = seg->cover;
      float w0 = c0 == c1 ? x1 - x0 : (c0 + 1) - x0;

      for (int k = 0; k < WS_N_THREAD_STATES; k++)
        rp->acc[k] += cover[k] * w0;
      if (c0 == c1)
        return;
      row_flush_col (rp);
      if (c1 > c0 + 1)
        row_emit_cols (rp, c0 + 1, c1, s);
      rp->cur_col = c1;
      w0 = x1 - c1;
      for (int k = 0; k < WS_N_THREAD_STATES; k++)
        rp->acc[k] += cover[k] * w0;
      return;
    }
  if (c0 == c1)
    {
      rp->acc[s] += 255 * (x1 - x0);
      return;
    }
  rp->acc[s] += 255 * ((c0 + 1) - x0);
  row_flush_col (rp);
  if (c1 > c0 + 1)
    row_emit_cols (rp, c0 + 1, c1, s);
  rp->cur_col = c1;
  rp->acc[s] += 255 * (x1 - c1);
}

static void
paint_row_states (RowPainter         *rp,
                  WsTimelineLod      *lod,
                  WsTimelineViewport *viewport,
                  guint               thread,
                  double              width)
{
  WsTime begin = ws_timeline_viewport_get_begin (viewport);
  WsTime end = ws_timeline_viewport_get_end (viewport);
  double ns_per_px = ws_timeline_viewport_get_ns_per_px (viewport);
  double scale = 1.0 / ns_per_px;
  const WsStateSegment *segs;
  guint n;

  segs = ws_timeline_lod_get_segments (lod, thread, ns_per_px, begin, end, &n);
  for (guint i = 0; i < n; i++)
    {
      double x0 = MAX ((double) (segs[i].t0 - begin) * scale, -1.0);
      double x1 = MIN ((double) (segs[i].t1 - begin) * scale, width + 1.0);

      if (x1 > x0)
        row_add_segment (rp, &segs[i], x0, x1);
    }
  row_flush_col (rp);
  row_emit_rle (rp);
}

/* Marks: one per kind per pixel column. */
static void
paint_row_marks (RowPainter         *rp,
                 WsTimelineLod      *lod,
                 WsTimelineViewport *viewport,
                 guint               thread,
                 double              y,
                 double              h)
{
  WsTime begin = ws_timeline_viewport_get_begin (viewport);
  double ns_per_px = ws_timeline_viewport_get_ns_per_px (viewport);
  double scale = 1.0 / ns_per_px;
  int last_col[WS_N_MARK_KINDS];
  const WsLodMark *marks;
  guint n, n_unwait = 0;

  for (guint k = 0; k < WS_N_MARK_KINDS; k++)
    last_col[k] = G_MININT;
  marks = ws_timeline_lod_get_marks (lod, thread, ns_per_px, begin, ws_timeline_viewport_get_end (viewport), &n);
  /* Wake-up ticks on more than a third of the columns would merge into a
   * solid line that says nothing (and shouts in red): leave them out until
   * the view is zoomed in far enough to tell them apart.  Hovering still
   * finds them. */
  for (guint i = 0; i < n; i++)
    n_unwait += marks[i].kind == WS_MARK_UNWAIT;
  if (n_unwait * 3 > (guint) rp->n_cols)
    last_col[WS_MARK_UNWAIT] = G_MAXINT;

  for (guint i = 0; i < n; i++)
    {
      int col = (int) floor ((double) (marks[i].time - begin) * scale);
      guint kind = marks[i].kind;
      WsFillRect r = { rp->x0 + col, y + 1, 1, 3 };

      if (col == last_col[kind] || last_col[kind] == G_MAXINT || col < 0 || col >= rp->n_cols)
        continue;
      last_col[kind] = col;
      if (kind == WS_MARK_SAMPLE)
        r.y = y + h - 4;
      else if (kind != WS_MARK_UNWAIT)
        r.h = h - 2;   /* a marker: the row's height */
      g_array_append_val (rp->self->mark_rects[kind], r);
    }
}

/* The first of @matches[lo…n) whose event starts at or after @t. */
static guint
first_match_from (const WsEvent  *events,
                  const guint32  *matches,
                  guint           lo,
                  guint           n,
                  WsTime          t)
{
  guint hi = n;

  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;
      if (events[matches[mid]].time < t)
        lo = mid + 1;
      else
        hi = mid;
    }
  return lo;
}

/* Search matches: a band behind each matching event, at most one per pixel
 * column; skipping ahead by binary search keeps this O(pixels) even when
 * every event matches. */
static void
paint_row_matches (RowPainter         *rp,
                   WsTimelineLod      *lod,
                   WsTimelineViewport *viewport,
                   guint               thread,
                   double              y,
                   double              h,
                   double              width)
{
  WsTime begin = ws_timeline_viewport_get_begin (viewport);
  double ns_per_px = ws_timeline_viewport_get_ns_per_px (viewport);
  double scale = 1.0 / ns_per_px;
  const WsEvent *events = ws_trace_get_events (ws_timeline_lod_get_trace (lod));
  guint n_matches;
  const guint32 *matches = ws_stack_search_get_thread_matches (rp->self->search, thread, &n_matches);
  int last = G_MININT;
  guint lo;

  /* Events of a thread mostly do not overlap: start one event early so a
   * long wait that began before the view is still marked. */
  lo = first_match_from (events, matches, 0, n_matches, begin - (WsTime) (ns_per_px * 2));
  if (lo > 0)
    lo--;

  for (guint i = lo; i < n_matches; i++)
    {
      const WsEvent *e = &events[matches[i]];
      double x0 = (double) (e->time - begin) * scale;
      double x1 = (double) (e->time + MAX (ws_event_duration (e), 0) - begin) * scale;
      WsTime next;
      WsFillRect r;

      if (x0 >= width)
        break;
      if (x1 < 0)
        continue;
      x0 = MAX (floor (x0), 0);
      x1 = MIN (MAX (ceil (x1), x0 + 1), width);
      if ((int) x1 <= last)
        continue;
      x0 = MAX (x0, last);
      r.x = rp->x0 + x0;
      r.w = x1 - x0;
      r.y = y + 1;
      r.h = h - 2;
      g_array_append_val (rp->self->match_rects, r);
      last = (int) x1;

      /* Skip the matches that would land in columns already covered. */
      next = begin + (WsTime) (last * ns_per_px);
      if (i + 1 < n_matches && events[matches[i + 1]].time < next)
        i = first_match_from (events, matches, i + 1, n_matches, next) - 1;
    }
}

static void
paint_thread_row (WsTimelineRenderer *self,
                  WsTimelineLod      *lod,
                  WsTimelineViewport *viewport,
                  guint               thread,
                  double              y,
                  double              h,
                  double              width)
{
  double bar_y, bar_h, line_y, line_h;
  RowPainter rp = { 0 };

  ws_timeline_row_bar_extents (y, h, &bar_y, &bar_h);
  ws_timeline_row_line_extents (y, h, &line_y, &line_h);
  rp.self = self;
  rp.x0 = self->geometry.label_width;
  rp.n_cols = (int) ceil (width);
  rp.bar_y = bar_y;
  rp.bar_h = bar_h;
  rp.line_y = line_y;
  rp.line_h = line_h;
  rp.cur_col = G_MININT;
  rp.rle_state = -1;

  paint_row_states (&rp, lod, viewport, thread, width);
  paint_row_marks (&rp, lod, viewport, thread, y, h);
  if (self->search != NULL)
    paint_row_matches (&rp, lod, viewport, thread, y, h, width);
}

static void
flush_rects (WsTimelineRenderer *self,
             cairo_t            *cr)
{
  WsFillTarget ft;

  /* Under the states, so that each wait's dashes show through its shade. */
  ws_timeline_durations_flush (self, cr);
  if (ws_fill_target_init (&ft, cr))
    {
      ws_fill_rects_fast (&ft, self->match_rects, &self->palette.search_match, 0, 0, 0);
      for (guint s = 0; s < WS_N_THREAD_STATES; s++)
        {
          guint off, on = ws_timeline_state_dash (s, &off);
          ws_fill_rects_fast (&ft, self->rects[s], &self->palette.states[s], on, off, self->geometry.label_width);
        }
      for (guint k = 0; k < WS_N_MARK_KINDS; k++)
        ws_fill_rects_fast (&ft, self->mark_rects[k], &self->palette.marks[k], 0, 0, 0);
      cairo_surface_mark_dirty (cairo_get_target (cr));
      return;
    }

  if (self->match_rects->len > 0)
    {
      ws_render_set_source (cr, &self->palette.search_match);
      ws_fill_rects_cairo (cr, self->match_rects);
    }
  for (guint s = 0; s < WS_N_THREAD_STATES; s++)
    {
      if (self->rects[s]->len == 0)
        continue;
      if (s == WS_THREAD_STATE_RUN)
        ws_render_set_source (cr, &self->palette.states[s]);
      else
        cairo_set_source (cr, ws_timeline_renderer_get_dash (self, s));
      ws_fill_rects_cairo (cr, self->rects[s]);
    }
  for (guint k = 0; k < WS_N_MARK_KINDS; k++)
    {
      if (self->mark_rects[k]->len == 0)
        continue;
      ws_render_set_source (cr, &self->palette.marks[k]);
      ws_fill_rects_cairo (cr, self->mark_rects[k]);
    }
}

/* ------------------------------------------------------------------ */
/* Events                                                               */

/**
 * ws_timeline_renderer_get_event_extents:
 * @t0: (out): where the event starts
 * @t1: (out): where it ends, for a wait including its ready latency
 *
 * Returns: %TRUE if @event exists
 */
gboolean
ws_timeline_renderer_get_event_extents (WsTimelineRenderer *self,
                                        WsTrace            *trace,
                                        guint               event,
                                        WsTime             *t0,
                                        WsTime             *t1)
{
  const WsEvent *e;

  g_return_val_if_fail (WS_IS_TRACE (trace), FALSE);

  if (event >= ws_trace_get_n_events (trace))
    return FALSE;
  e = ws_trace_get_event (trace, event);
  *t0 = e->time;
  *t1 = e->time + MAX (ws_event_duration (e), 0);
  if (e->kind == WS_EVENT_RUNNING && !(e->flags & WS_EVENT_FLAG_SPAN))
    *t1 = e->time;
  if (e->kind == WS_EVENT_WAIT && ws_trace_wait_ready_latency (trace, event) != WS_LATENCY_UNKNOWN)
    *t1 += ws_trace_wait_ready_latency (trace, event);
  return TRUE;
}

static double
row_top (WsTimelineRenderer  *self,
         const WsTimelineRow *row,
         double               scroll_y)
{
  return self->geometry.ruler_height + row->y - scroll_y;
}

/* The row that shows @thread: its own, or its process header when the
 * process is collapsed. */
static const WsTimelineRow *
thread_display_row (WsTimelineLayout *layout,
                    WsTrace          *trace,
                    guint             thread)
{
  guint row = ws_timeline_layout_find_thread_row (layout, thread);

  if (row == WS_NONE && thread < ws_trace_get_n_threads (trace))
    row = ws_timeline_layout_find_process_row (layout, ws_trace_get_thread (trace, thread)->process);
  return row == WS_NONE ? NULL : ws_timeline_layout_get_row (layout, row);
}

/* A frame around [@t0, @t1] on @thread's row; dashed with @dashed. */
static void
outline_span (WsTimelineRenderer *self,
              cairo_t            *cr,
              WsTimelineLayout   *layout,
              WsTimelineViewport *viewport,
              WsTrace            *trace,
              guint               thread,
              WsTime              t0,
              WsTime              t1,
              double              scroll_y,
              const WsColor      *colour,
              double              line_width,
              gboolean            dashed)
{
  const WsTimelineRow *row;
  double x0, x1, y, bar_y, bar_h;

  row = thread_display_row (layout, trace, thread);
  if (row == NULL)
    return;

  y = row_top (self, row, scroll_y) + row->lane;
  ws_timeline_row_bar_extents (y, row->height - row->lane, &bar_y, &bar_h);
  x0 = self->geometry.label_width + ws_timeline_viewport_time_to_x (viewport, t0);
  x1 = self->geometry.label_width + ws_timeline_viewport_time_to_x (viewport, t1);
  x0 = MAX (x0, self->geometry.label_width - 4);
  x1 = MIN (x1, self->geometry.label_width + ws_timeline_viewport_get_width (viewport) + 4);
  if (x1 - x0 < 5)
    {
      double mid = (x0 + x1) / 2;
      x0 = mid - 2.5;
      x1 = mid + 2.5;
    }

  cairo_save (cr);
  ws_render_set_source (cr, colour);
  cairo_set_line_width (cr, line_width);
  if (dashed)
    {
      static const double dash[] = { 4, 3 };
      cairo_set_dash (cr, dash, G_N_ELEMENTS (dash), 0);
    }
  cairo_rectangle (cr, round (x0) - line_width / 2, bar_y - 2 - line_width / 2,
                   round (x1) - round (x0) + line_width, bar_h + 4 + line_width);
  cairo_stroke (cr);
  cairo_restore (cr);
}

static void
outline_event (WsTimelineRenderer *self,
               cairo_t            *cr,
               WsTimelineLayout   *layout,
               WsTimelineViewport *viewport,
               WsTrace            *trace,
               guint               event,
               double              scroll_y,
               const WsColor      *colour,
               double              line_width)
{
  WsTime t0, t1;

  if (!ws_timeline_renderer_get_event_extents (self, trace, event, &t0, &t1))
    return;
  outline_span (self, cr, layout, viewport, trace, ws_trace_get_event (trace, event)->thread,
                t0, t1, scroll_y, colour, line_width, FALSE);
}

static void
draw_arrow_head (cairo_t *cr,
                 double   x0,
                 double   y0,
                 double   x1,
                 double   y1)
{
  double angle = atan2 (y1 - y0, x1 - x0);
  double len = 9, spread = 0.45;

  cairo_move_to (cr, x1, y1);
  cairo_line_to (cr, x1 - len * cos (angle - spread), y1 - len * sin (angle - spread));
  cairo_line_to (cr, x1 - len * cos (angle + spread), y1 - len * sin (angle + spread));
  cairo_close_path (cr);
  cairo_fill (cr);
}

/* "Who woke whom": an arrow from the readier's UNWAIT to the end of the
 * selected wait, or a label saying why there is none.  A try of a lock
 * wait the program's timeout cut up is one wait with the other tries
 * (ws_false_runs_get()): the whole wait is framed, dashed, and the arrow
 * comes from what ended its last try. */
static void
draw_readier_arrow (WsTimelineRenderer *self,
                    cairo_t            *cr,
                    WsTimelineLayout   *layout,
                    WsTimelineViewport *viewport,
                    WsTrace            *trace,
                    guint               wait_index,
                    double              scroll_y)
{
  const WsEvent *wait = ws_trace_get_event (trace, wait_index);
  const WsTimelineRow *wait_row, *readier_row;
  const WsWaitChain *chain;
  guint readier = WS_NONE;
  WsReadierKind kind;
  double ex, ey, sx, sy, ox = self->geometry.label_width;
  const char *label = NULL;
  g_autofree char *owned = NULL;
  g_autofree char *joined = NULL;

  if (wait->kind != WS_EVENT_WAIT)
    return;
  if ((chain = ws_false_runs_chain_of (ws_false_runs_get (trace, NULL), wait_index)) != NULL)
    {
      outline_span (self, cr, layout, viewport, trace, wait->thread, chain->start, chain->end,
                    scroll_y, &self->palette.accent, 1, TRUE);
      joined = ws_false_runs_describe (trace, NULL, wait_index);
      wait_index = chain->last;
      wait = ws_trace_get_event (trace, wait_index);
    }
  wait_row = thread_display_row (layout, trace, wait->thread);
  if (wait_row == NULL)
    return;

  ex = ox + ws_timeline_viewport_time_to_x (viewport, wait->time + MAX (ws_event_duration (wait), 0));
  ey = row_top (self, wait_row, scroll_y) + wait_row->lane + (wait_row->height - wait_row->lane) / 2;
  kind = ws_trace_wait_readier (trace, wait_index, &readier);

  cairo_save (cr);
  ws_render_set_source (cr, &self->palette.arrow);
  cairo_set_line_width (cr, 2);

  if (kind == WS_READIER_THREAD && (readier_row = thread_display_row (layout, trace, readier)) != NULL)
    {
      const WsEvent *unwait = ws_trace_get_event (trace, wait->peer);
      double dir;

      sx = ox + ws_timeline_viewport_time_to_x (viewport, unwait->time);
      sy = row_top (self, readier_row, scroll_y) + readier_row->lane + (readier_row->height - readier_row->lane) / 2;
      dir = sy < ey ? 1 : -1;

      cairo_arc (cr, sx, sy, 3.5, 0, 2 * G_PI);
      cairo_fill (cr);
      if (fabs (ey - sy) > 1)
        {
          /* Stop at the edge of the wait's bar so the head stays visible. */
          double bar_y, bar_h, tip;
          ws_timeline_row_bar_extents (row_top (self, wait_row, scroll_y) + wait_row->lane,
                                       wait_row->height - wait_row->lane, &bar_y, &bar_h);
          tip = dir > 0 ? bar_y - 1 : bar_y + bar_h + 1;
          cairo_move_to (cr, sx, sy);
          cairo_curve_to (cr, sx + 18, sy + dir * 10, ex + 18, tip - dir * 14, ex, tip);
          cairo_stroke (cr);
          draw_arrow_head (cr, ex + 6, tip - dir * 8, ex, tip);
        }
      owned = ws_wait_readier_dup_sentence (NULL, trace, wait_index);
      label = joined != NULL ? joined : owned;
      sx += 6;
    }
  else
    {
      sx = ex + 6;
      sy = ey;
      /* A joined wait says how many tries; otherwise the sentence every
       * view writes (a timer's expiry is "timer expired" in all). */
      if (joined != NULL)
        label = joined;
      else
        label = owned = ws_wait_readier_dup_sentence (NULL, trace, wait_index);
    }

  if (label != NULL)
    {
      PangoLayout *pl = ws_timeline_renderer_get_scratch (self);
      int w, h;

      double right = ox + ws_timeline_viewport_get_width (viewport), bx, by;

      pango_layout_set_text (pl, label, -1);
      pango_layout_set_width (pl, -1);
      pango_layout_set_ellipsize (pl, PANGO_ELLIPSIZE_NONE);
      pango_layout_get_pixel_size (pl, &w, &h);
      /* Beside the point, on whichever side has room: past the right
       * edge it was cut off; above it unless that is under the ruler. */
      bx = sx + 2;
      if (bx + w + 8 > right - 2)
        bx = sx - 14 - (w + 8);
      bx = round (MAX (bx, ox + 2));
      by = sy - h - 6;
      if (by < self->geometry.ruler_height + 2)
        by = sy + 6;
      cairo_rectangle (cr, bx + 0.5, by + 0.5, w + 8, h + 4);
      ws_render_set_source (cr, &self->palette.background);
      cairo_fill_preserve (cr);
      ws_render_set_source (cr, &self->palette.arrow);
      cairo_set_line_width (cr, 1);
      cairo_stroke (cr);
      cairo_move_to (cr, bx + 4, by + 2);
      pango_cairo_show_layout (cr, pl);
    }
  cairo_restore (cr);
}

/* ------------------------------------------------------------------ */
/* Ruler and grid                                                       */

/* The pixel width of @text in the timeline's font. */
static int
text_width (WsTimelineRenderer *self,
            const char         *text)
{
  PangoLayout *pl = ws_timeline_renderer_get_scratch (self);
  int w;

  pango_layout_set_text (pl, text, -1);
  pango_layout_set_width (pl, -1);
  pango_layout_set_ellipsize (pl, PANGO_ELLIPSIZE_NONE);
  pango_layout_get_pixel_size (pl, &w, NULL);
  return w;
}

/* The tick labels of the ruler, each one whole or not at all: a label cut
 * by the label column read as another number ("150 ms" as "50 ms"), and
 * one drawn over its neighbour or under the selection's bubble
 * (@avoid_x0..@avoid_x1, empty if @avoid_x1 < @avoid_x0) read as nothing. */
static void
draw_ruler_labels (WsTimelineRenderer *self,
                   cairo_t            *cr,
                   WsTimelineViewport *viewport,
                   const WsTickStep   *tick,
                   double              width,
                   double              avoid_x0,
                   double              avoid_x1)
{
  WsTime begin = ws_timeline_viewport_get_begin (viewport);
  WsTime end = ws_timeline_viewport_get_end (viewport);
  WsTime origin = ws_timeline_viewport_get_min (viewport);
  WsTime first = origin + ((begin - origin) / tick->step) * tick->step;
  double ox = self->geometry.label_width, rh = self->geometry.ruler_height;
  double last_right = -G_MAXDOUBLE;

  ws_render_set_source (cr, &self->palette.foreground);
  for (WsTime t = first; t <= end; t += tick->step)
    {
      double x = ox + floor (ws_timeline_viewport_time_to_x (viewport, t)) + 4;
      g_autofree char *label = ws_tick_step_format (tick, t - origin);
      int w = text_width (self, label);

      if (x < ox + 2 || x + w > width - 2 || x < last_right + 8)
        continue;
      if (avoid_x1 >= avoid_x0 && x < avoid_x1 + 4 && x + w > avoid_x0 - 4)
        continue;
      show_text (self, cr, label, x, rh / 2 - 3, -1, FALSE, FALSE);
      last_right = x + w;
    }
}

static void
draw_grid_and_ruler (WsTimelineRenderer *self,
                     cairo_t            *cr,
                     WsTimelineViewport *viewport,
                     double              width,
                     double              height,
                     gboolean            ruler,
                     double              avoid_x0,
                     double              avoid_x1)
{
  WsTime begin = ws_timeline_viewport_get_begin (viewport);
  WsTime end = ws_timeline_viewport_get_end (viewport);
  WsTime origin = ws_timeline_viewport_get_min (viewport);
  double ox = self->geometry.label_width;
  double rh = self->geometry.ruler_height;
  WsTickStep tick;
  WsTime first;

  ws_tick_step_compute (&tick, ws_timeline_viewport_get_ns_per_px (viewport),
                        MIN_TICK_PX, end - origin);

  if (!ruler)
    {
      /* Grid lines at the labelled ticks, through the rows. */
      ws_render_set_source (cr, &self->palette.grid);
      first = origin + ((begin - origin) / tick.step) * tick.step;
      for (WsTime t = first; t <= end; t += tick.step)
        {
          double x = ox + floor (ws_timeline_viewport_time_to_x (viewport, t)) + 0.5;
          if (x < ox)
            continue;
          cairo_move_to (cr, x, rh);
          cairo_line_to (cr, x, height);
        }
      cairo_set_line_width (cr, 1);
      cairo_stroke (cr);
      return;
    }

  ws_render_set_source (cr, &self->palette.header_background);
  cairo_rectangle (cr, ox, 0, width - ox, rh);
  cairo_fill (cr);

  ws_render_set_source (cr, &self->palette.dim_foreground);
  cairo_set_line_width (cr, 1);
  first = origin + ((begin - origin) / tick.minor) * tick.minor;
  for (WsTime t = first; t <= end; t += tick.minor)
    {
      double x = ox + floor (ws_timeline_viewport_time_to_x (viewport, t)) + 0.5;
      gboolean major = (t - origin) % tick.step == 0;

      if (x < ox)
        continue;
      cairo_move_to (cr, x, rh - (major ? 9 : 4));
      cairo_line_to (cr, x, rh);
    }
  cairo_stroke (cr);

  draw_ruler_labels (self, cr, viewport, &tick, width, avoid_x0, avoid_x1);

  ws_render_set_source (cr, &self->palette.separator);
  cairo_rectangle (cr, 0, rh - 1, width, 1);
  cairo_fill (cr);
}

static void
draw_corner (WsTimelineRenderer *self,
             cairo_t            *cr,
             WsTimelineViewport *viewport)
{
  g_autofree char *span = ws_format_duration (ws_timeline_viewport_get_end (viewport) -
                                              ws_timeline_viewport_get_begin (viewport));
  g_autofree char *text = NULL;
  double rh = self->geometry.ruler_height;

  ws_render_set_source (cr, &self->palette.header_background);
  cairo_rectangle (cr, 0, 0, self->geometry.label_width, rh);
  cairo_fill (cr);
  ws_render_set_source (cr, &self->palette.dim_foreground);
  /* Translators: top-left corner of the timeline: the visible time span */
  text = g_strdup_printf (_("%s shown"), span);
  show_text (self, cr, text, self->geometry.label_width - LABEL_PAD, rh / 2 - 1,
             self->geometry.label_width - 2 * LABEL_PAD, TRUE, FALSE);
}

/* ------------------------------------------------------------------ */
/* Drawing                                                              */

/* One frame of the timeline, as ws_timeline_renderer_draw() was asked. */
typedef struct {
  WsTimelineRenderer *self;
  cairo_t            *cr;
  WsTimelineLod      *lod;
  WsTimelineLayout   *layout;
  WsTimelineViewport *viewport;
  WsTrace            *trace;
  double              scroll_y, width, height;
  double              ox, rh, chart_w;   /* label column, ruler, chart width */
  guint               first_row, n_rows;
  gboolean            has_sel;
  guint               sel_thread;
  WsTime              sel_t0, sel_t1;
} Frame;

/* Row backgrounds, full width. */
static void
draw_row_backgrounds (Frame *f)
{
  for (guint r = f->first_row; r < f->n_rows; r++)
    {
      const WsTimelineRow *row = ws_timeline_layout_get_row (f->layout, r);
      double y = row_top (f->self, row, f->scroll_y);

      if (y >= f->height)
        break;
      if (row->kind == WS_TIMELINE_ROW_PROCESS)
        {
          ws_render_set_source (f->cr, &f->self->palette.header_background);
          cairo_rectangle (f->cr, 0, y, f->width, row->height);
          cairo_fill (f->cr);
          ws_render_set_source (f->cr, &f->self->palette.separator);
          cairo_rectangle (f->cr, 0, y, f->width, 1);
          cairo_fill (f->cr);
        }
      else if (r % 2 == 1)
        {
          ws_render_set_source (f->cr, &f->self->palette.row_alternate);
          cairo_rectangle (f->cr, 0, y, f->width, row->height);
          cairo_fill (f->cr);
        }
    }
}

/* A band on the selected thread only: the window is a symptom of that
 * thread; the edges are drawn across all rows by draw_selection_edges(). */
static void
draw_selection_band (Frame *f)
{
  const WsTimelineRow *row = thread_display_row (f->layout, f->trace, f->sel_thread);
  double x0 = f->ox + ws_timeline_viewport_time_to_x (f->viewport, f->sel_t0);
  double x1 = f->ox + ws_timeline_viewport_time_to_x (f->viewport, f->sel_t1);

  x0 = MAX (x0, f->ox - 2);
  x1 = MIN (x1, f->width + 2);
  if (x1 - x0 < 1)
    x1 = x0 + 1;
  ws_render_set_source (f->cr, &f->self->palette.selection);
  if (row != NULL)
    {
      cairo_rectangle (f->cr, x0, row_top (f->self, row, f->scroll_y), x1 - x0, row->height);
      cairo_fill (f->cr);
    }
}

static void
draw_selection_edges (Frame *f)
{
  double x0 = f->ox + floor (ws_timeline_viewport_time_to_x (f->viewport, f->sel_t0)) + 0.5;
  double x1 = f->ox + floor (ws_timeline_viewport_time_to_x (f->viewport, f->sel_t1)) + 0.5;

  ws_render_set_source (f->cr, &f->self->palette.accent);
  cairo_set_line_width (f->cr, 1);
  cairo_move_to (f->cr, x0, f->rh);
  cairo_line_to (f->cr, x0, f->height);
  cairo_move_to (f->cr, x1, f->rh);
  cairo_line_to (f->cr, x1, f->height);
  cairo_stroke (f->cr);
}

/* Row contents, clipped to the chart: states, marks, matches, the
 * selection, and the hovered and selected events. */
static void
draw_chart (Frame *f)
{
  guint hovered, selected;

  cairo_save (f->cr);
  cairo_rectangle (f->cr, f->ox, f->rh, f->chart_w, MAX (f->height - f->rh, 0));
  cairo_clip (f->cr);

  if (f->has_sel)
    draw_selection_band (f);
  for (guint r = f->first_row; r < f->n_rows; r++)
    {
      const WsTimelineRow *row = ws_timeline_layout_get_row (f->layout, r);
      double y = row_top (f->self, row, f->scroll_y);

      if (y >= f->height)
        break;
      if (row->kind != WS_TIMELINE_ROW_THREAD)
        continue;
      paint_thread_row (f->self, f->lod, f->viewport, row->index, y + row->lane, row->height - row->lane, f->chart_w);
      ws_timeline_durations_paint_row (f->self, f->lod, f->viewport, row->index, y + row->lane,
                                       row->height - row->lane, f->chart_w);
      if (row->lane > 0)
        ws_timeline_slices_draw_row (f->self, f->cr, f->lod, f->viewport, row->index, y, row->lane, f->chart_w);
    }
  flush_rects (f->self, f->cr);
  ws_timeline_durations_draw_labels (f->self, f->cr);
  if (f->has_sel)
    draw_selection_edges (f);

  hovered = ws_timeline_viewport_get_hovered_event (f->viewport);
  selected = ws_timeline_viewport_get_selected_event (f->viewport);
  if (hovered != WS_NONE && hovered != selected)
    outline_event (f->self, f->cr, f->layout, f->viewport, f->trace, hovered, f->scroll_y, &f->self->palette.hover, 1);
  if (selected != WS_NONE && selected < ws_trace_get_n_events (f->trace))
    {
      outline_event (f->self, f->cr, f->layout, f->viewport, f->trace, selected, f->scroll_y, &f->self->palette.accent, 2);
      draw_readier_arrow (f->self, f->cr, f->layout, f->viewport, f->trace, selected, f->scroll_y);
    }
  cairo_restore (f->cr);
}

static void
draw_disclosure_triangle (Frame    *f,
                          double    cy,
                          gboolean  collapsed)
{
  double cx = 9;

  ws_render_set_source (f->cr, &f->self->palette.dim_foreground);
  if (collapsed)
    {
      cairo_move_to (f->cr, cx - 2.5, cy - 4.5);
      cairo_line_to (f->cr, cx + 2.5, cy);
      cairo_line_to (f->cr, cx - 2.5, cy + 4.5);
    }
  else
    {
      cairo_move_to (f->cr, cx - 4.5, cy - 2.5);
      cairo_line_to (f->cr, cx + 4.5, cy - 2.5);
      cairo_line_to (f->cr, cx, cy + 2.5);
    }
  cairo_close_path (f->cr);
  cairo_fill (f->cr);
}

static void
draw_row_label (Frame               *f,
                const WsTimelineRow *row,
                double               y)
{
  gboolean is_process = row->kind == WS_TIMELINE_ROW_PROCESS;
  gboolean collapsed = is_process && ws_timeline_layout_get_collapsed (f->layout, row->index);
  PangoLayout *label;
  int lw, lh;

  if (is_process)
    draw_disclosure_triangle (f, y + row->height / 2, collapsed);
  else if ((f->has_sel && row->index == f->sel_thread) ||
           ws_timeline_viewport_is_thread_highlighted (f->viewport, row->index))
    {
      ws_render_set_source (f->cr, &f->self->palette.selection);
      cairo_rectangle (f->cr, 0, y, f->ox, row->height);
      cairo_fill (f->cr);
    }

  label = get_row_label (f->self, f->trace, row, collapsed);
  pango_layout_get_pixel_size (label, &lw, &lh);
  ws_render_set_source (f->cr, &f->self->palette.foreground);
  cairo_move_to (f->cr, is_process ? PROCESS_INDENT : THREAD_INDENT, y + row->lane + (row->height - row->lane - lh) / 2);
  pango_cairo_show_layout (f->cr, label);
}

/* The label column, clipped below the ruler, and its right edge. */
static void
draw_labels (Frame *f)
{
  cairo_save (f->cr);
  cairo_rectangle (f->cr, 0, f->rh, f->ox, MAX (f->height - f->rh, 0));
  cairo_clip (f->cr);
  for (guint r = f->first_row; r < f->n_rows; r++)
    {
      const WsTimelineRow *row = ws_timeline_layout_get_row (f->layout, r);
      double y = row_top (f->self, row, f->scroll_y);

      if (y >= f->height)
        break;
      draw_row_label (f, row, y);
    }
  cairo_restore (f->cr);

  ws_render_set_source (f->cr, &f->self->palette.separator);
  cairo_rectangle (f->cr, f->ox - 1, 0, 1, f->height);
  cairo_fill (f->cr);
}

/* The selection on the ruler, with its length in a pill over the tick
 * labels. */
/* Where the selection's duration bubble goes on the ruler: its left edge
 * (the text starts 6 px in) and the text's width. */
static double
selection_bubble_x (Frame *f,
                    int   *text_w)
{
  double x0 = f->ox + ws_timeline_viewport_time_to_x (f->viewport, f->sel_t0);
  double x1 = f->ox + ws_timeline_viewport_time_to_x (f->viewport, f->sel_t1);
  g_autofree char *dur = ws_format_duration (f->sel_t1 - f->sel_t0);
  int tw = text_width (f->self, dur);
  double cx = CLAMP ((MAX (x0, f->ox) + MIN (x1, f->width)) / 2, f->ox + tw / 2.0 + 6, f->width - tw / 2.0 - 6);

  *text_w = tw;
  return round (cx - tw / 2.0 - 6);
}

static void
draw_selection_on_ruler (Frame *f)
{
  cairo_t *cr = f->cr;
  double x0 = f->ox + ws_timeline_viewport_time_to_x (f->viewport, f->sel_t0);
  double x1 = f->ox + ws_timeline_viewport_time_to_x (f->viewport, f->sel_t1);
  g_autofree char *dur = ws_format_duration (f->sel_t1 - f->sel_t0);
  PangoLayout *pl;
  double rh = f->rh, px;
  int tw, th;

  cairo_save (cr);
  cairo_rectangle (cr, f->ox, 0, f->chart_w, rh);
  cairo_clip (cr);
  pl = ws_timeline_renderer_get_scratch (f->self);

  ws_render_set_source (cr, &f->self->palette.selection);
  cairo_rectangle (cr, x0, 0, MAX (x1 - x0, 1), rh);
  cairo_fill (cr);

  px = selection_bubble_x (f, &tw);
  pango_layout_set_text (pl, dur, -1);
  pango_layout_set_width (pl, -1);
  pango_layout_get_pixel_size (pl, &tw, &th);
  ws_render_set_source (cr, &f->self->palette.accent);
  cairo_new_sub_path (cr);
  cairo_arc (cr, px + 8, rh / 2, 8, G_PI / 2, 3 * G_PI / 2);
  cairo_arc (cr, px + tw + 4, rh / 2, 8, -G_PI / 2, G_PI / 2);
  cairo_close_path (cr);
  cairo_fill (cr);
  ws_render_set_source (cr, &f->self->palette.background);
  cairo_move_to (cr, px + 6, rh / 2 - th / 2.0);
  pango_cairo_show_layout (cr, pl);
  cairo_restore (cr);
}

void
ws_timeline_renderer_draw (WsTimelineRenderer *self,
                           cairo_t            *cr,
                           WsTimelineLod      *lod,
                           WsTimelineLayout   *layout,
                           WsTimelineViewport *viewport,
                           double              scroll_y,
                           double              width,
                           double              height)
{
  Frame f;

  g_return_if_fail (WS_IS_TIMELINE_RENDERER (self));
  g_return_if_fail (cr != NULL);
  g_return_if_fail (WS_IS_TIMELINE_LOD (lod));
  g_return_if_fail (WS_IS_TIMELINE_LAYOUT (layout));
  g_return_if_fail (WS_IS_TIMELINE_VIEWPORT (viewport));

  f = (Frame) {
    .self = self, .cr = cr, .lod = lod, .layout = layout, .viewport = viewport,
    .trace = ws_timeline_lod_get_trace (lod),
    /* Whole pixels: crisp edges, and the fast fill path relies on it. */
    .scroll_y = round (scroll_y), .width = width, .height = height,
    .ox = self->geometry.label_width, .rh = self->geometry.ruler_height,
    .chart_w = MAX (width - self->geometry.label_width, 1),
    .n_rows = ws_timeline_layout_get_n_rows (layout),
  };
  f.first_row = ws_timeline_layout_row_at_y (layout, MAX (f.scroll_y, 0));
  if (f.first_row == WS_NONE)
    f.first_row = f.n_rows;
  f.has_sel = ws_timeline_viewport_get_selection (viewport, &f.sel_thread, &f.sel_t0, &f.sel_t1);

  cairo_save (cr);
  cairo_rectangle (cr, 0, 0, width, height);
  cairo_clip (cr);
  ws_render_set_source (cr, &self->palette.background);
  cairo_paint (cr);

  draw_row_backgrounds (&f);
  draw_grid_and_ruler (self, cr, viewport, width, height, FALSE, 0, -1);
  draw_chart (&f);
  draw_labels (&f);

  /* Ruler on top of everything that scrolled under it; no tick label
   * under the selection's bubble. */
  draw_corner (self, cr, viewport);
  if (f.has_sel)
    {
      int tw;
      double bx = selection_bubble_x (&f, &tw);
      draw_grid_and_ruler (self, cr, viewport, width, height, TRUE, bx, bx + tw + 12);
      draw_selection_on_ruler (&f);
    }
  else
    draw_grid_and_ruler (self, cr, viewport, width, height, TRUE, 0, -1);

  cairo_restore (cr);
}
