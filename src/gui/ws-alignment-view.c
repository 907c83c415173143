/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The widget only keeps interactive state (scroll offsets, selection,
 * marks, cursor); the drawing and the geometry are the renderer's, so
 * the pixel tests of the renderer hold for what the user sees.
 */
#include "config.h"

#include <glib/gi18n.h>
#include <string.h>

#include "ws-alignment-view.h"
#include "ws-view-gestures.h"
#include "ws-view-style.h"

struct _WsAlignmentView
{
  GtkWidget            parent_instance;

  WsAlignmentRenderer *renderer;
  WsAlignmentGrid     *grid;
  WsAlignmentState     state;
  GArray              *marked;       /* guint8 per row */
  GArray              *unfolded;     /* guint8 per row: segment shown in full */

  GtkAdjustment       *hadjustment;
  GtkAdjustment       *vadjustment;
  guint                hscroll_policy : 1;
  guint                vscroll_policy : 1;
};

static void scrollable_iface_init (GtkScrollableInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (WsAlignmentView, ws_alignment_view, GTK_TYPE_WIDGET,
                               G_IMPLEMENT_INTERFACE (GTK_TYPE_SCROLLABLE, scrollable_iface_init))

enum {
  PROP_0,
  PROP_SELECTED_PATTERN,
  N_PROPS,
  /* GtkScrollable */
  PROP_HADJUSTMENT,
  PROP_VADJUSTMENT,
  PROP_HSCROLL_POLICY,
  PROP_VSCROLL_POLICY,
};

static GParamSpec *properties[N_PROPS];

enum {
  PATTERN_ACTIVATED,
  MARKS_CHANGED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

static void
scrollable_iface_init (GtkScrollableInterface *iface)
{
}

/* The state the renderer reads, pointing at the current arrays. */
static const WsAlignmentState *
state (WsAlignmentView *self)
{
  self->state.marked = (const guint8 *) self->marked->data;
  self->state.unfolded = (const guint8 *) self->unfolded->data;
  return &self->state;
}

static double
hvalue (WsAlignmentView *self)
{
  return self->hadjustment ? round (gtk_adjustment_get_value (self->hadjustment)) : 0;
}

static double
vvalue (WsAlignmentView *self)
{
  return self->vadjustment ? round (gtk_adjustment_get_value (self->vadjustment)) : 0;
}

static void
configure_adjustments (WsAlignmentView *self)
{
  double w = 0, h = 0;
  int width = gtk_widget_get_width (GTK_WIDGET (self));
  int height = gtk_widget_get_height (GTK_WIDGET (self));

  if (self->grid != NULL)
    ws_alignment_renderer_measure (self->renderer, self->grid, state (self), &w, &h);

  if (self->hadjustment != NULL)
    {
      double upper = MAX (w, width);
      gtk_adjustment_configure (self->hadjustment,
                                CLAMP (gtk_adjustment_get_value (self->hadjustment), 0, upper - width),
                                0, upper, 24, width * 0.9, width);
    }
  if (self->vadjustment != NULL)
    {
      double upper = MAX (h, height);
      gtk_adjustment_configure (self->vadjustment,
                                CLAMP (gtk_adjustment_get_value (self->vadjustment), 0, upper - height),
                                0, upper, WS_ALIGNMENT_ROW_HEIGHT, height * 0.9, height);
    }
}

static void
adjustment_value_changed (WsAlignmentView *self)
{
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

static void
set_adjustment (WsAlignmentView  *self,
                GtkAdjustment   **slot,
                GtkAdjustment    *adjustment)
{
  if (adjustment == *slot)
    return;
  if (*slot != NULL)
    {
      g_signal_handlers_disconnect_by_data (*slot, self);
      g_clear_object (slot);
    }
  if (adjustment == NULL)
    adjustment = gtk_adjustment_new (0, 0, 0, 0, 0, 0);
  *slot = g_object_ref_sink (adjustment);
  g_signal_connect_swapped (adjustment, "value-changed", G_CALLBACK (adjustment_value_changed), self);
  configure_adjustments (self);
}

/* Scrolls so that @row is visible. */
static void
reveal_row (WsAlignmentView *self,
            guint            row,
            guint            pattern)
{
  WsAlignmentRect r;

  if (self->grid == NULL ||
      !ws_alignment_renderer_get_cell_rect (self->renderer, self->grid, state (self), row,
                                            pattern < ws_alignment_grid_get_n_patterns (self->grid) ? pattern : 0, &r))
    return;
  if (self->vadjustment != NULL)
    {
      double v = gtk_adjustment_get_value (self->vadjustment);
      double page = gtk_adjustment_get_page_size (self->vadjustment);

      /* The header is drawn over the top of the page. */
      if (r.y - WS_ALIGNMENT_HEADER_HEIGHT < v)
        gtk_adjustment_set_value (self->vadjustment, r.y - WS_ALIGNMENT_HEADER_HEIGHT);
      else if (r.y + r.height > v + page)
        gtk_adjustment_set_value (self->vadjustment, r.y + r.height - page);
    }
  if (self->hadjustment != NULL && pattern != WS_NONE)
    {
      double v = gtk_adjustment_get_value (self->hadjustment);
      double page = gtk_adjustment_get_page_size (self->hadjustment);

      if (r.x - WS_ALIGNMENT_GUTTER_WIDTH < v)
        gtk_adjustment_set_value (self->hadjustment, r.x - WS_ALIGNMENT_GUTTER_WIDTH);
      else if (r.x + r.width > v + page)
        gtk_adjustment_set_value (self->hadjustment, r.x + r.width - page + WS_ALIGNMENT_COLUMN_GAP);
    }
}

static void
update_accessible (WsAlignmentView *self)
{
  g_autofree char *desc = NULL;

  if (self->grid == NULL)
    desc = g_strdup (_("No cluster selected"));
  else
    {
      g_autofree char *summary = ws_alignment_grid_describe (self->grid);
      guint row = self->state.focus_row, pattern = self->state.focus_pattern;

      if (row < ws_alignment_grid_get_n_rows (self->grid) && pattern < ws_alignment_grid_get_n_patterns (self->grid))
        {
          const WsAlignmentCell *cell = ws_alignment_grid_get_cell (self->grid, row, pattern);

          /* Translators: accessible description of the alignment: summary,
           * then the cursor's row, pattern title, frame, and whether the row
           * is marked */
          desc = g_strdup_printf (_("%s Cursor: row %u, %s: %s%s."), summary, row + 1,
                                  ws_alignment_grid_get_title (self->grid, pattern),
                                  ws_alignment_cell_is_gap (cell) ? _("no frame") : cell->function,
                                  ws_alignment_view_get_row_marked (self, row) ? _(", marked") : "");
        }
      else
        desc = g_steal_pointer (&summary);
    }
  gtk_accessible_update_property (GTK_ACCESSIBLE (self), GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, desc, -1);
}

/* ------------------------------------------------------------------ */
/* Drawing                                                              */

static void
update_style (WsAlignmentView *self)
{
  WsViewStyle style;
  WsAlignmentPalette palette;

  ws_view_style_read (GTK_WIDGET (self), &style);
  if (style.dark)
    ws_alignment_palette_init_dark (&palette);
  else
    ws_alignment_palette_init_light (&palette);
  if (style.has_accent)
    palette.selection = style.accent;
  ws_alignment_renderer_set_palette (self->renderer, &palette);
  if (style.font_family != NULL)
    ws_alignment_renderer_set_font (self->renderer, style.font_family);
  gtk_widget_queue_resize (GTK_WIDGET (self));
}

static void
ws_alignment_view_css_changed (GtkWidget         *widget,
                               GtkCssStyleChange *change)
{
  GTK_WIDGET_CLASS (ws_alignment_view_parent_class)->css_changed (widget, change);
  update_style (WS_ALIGNMENT_VIEW (widget));
}

static void
ws_alignment_view_snapshot (GtkWidget   *widget,
                            GtkSnapshot *snapshot)
{
  WsAlignmentView *self = WS_ALIGNMENT_VIEW (widget);
  int width = gtk_widget_get_width (widget), height = gtk_widget_get_height (widget);
  double x0 = hvalue (self), y0 = vvalue (self);
  cairo_t *cr;

  if (self->grid == NULL || width <= 0 || height <= 0)
    return;

  cr = gtk_snapshot_append_cairo (snapshot, &GRAPHENE_RECT_INIT (0, 0, width, height));
  {
    const WsColor *bg = &ws_alignment_renderer_get_palette (self->renderer)->background;
    cairo_set_source_rgba (cr, bg->red, bg->green, bg->blue, bg->alpha);
    cairo_paint (cr);
  }
  state (self);
  if (gtk_widget_has_focus (widget) && self->state.focus_row == WS_NONE &&
      ws_alignment_grid_get_n_rows (self->grid) > 0)
    self->state.focus_row = 0;

  /* Rows scroll under a header that stays put. */
  cairo_save (cr);
  cairo_translate (cr, -x0, -y0);
  ws_alignment_renderer_draw (self->renderer, cr, self->grid, state (self),
                              y0 + WS_ALIGNMENT_HEADER_HEIGHT, y0 + height);
  cairo_restore (cr);
  cairo_save (cr);
  cairo_rectangle (cr, 0, 0, width, WS_ALIGNMENT_HEADER_HEIGHT);
  cairo_clip (cr);
  cairo_translate (cr, -x0, 0);
  ws_alignment_renderer_draw (self->renderer, cr, self->grid, state (self), 0, WS_ALIGNMENT_HEADER_HEIGHT - 0.5);
  cairo_restore (cr);
  cairo_destroy (cr);
}

static void
ws_alignment_view_measure (GtkWidget      *widget,
                           GtkOrientation  orientation,
                           int             for_size,
                           int            *minimum,
                           int            *natural,
                           int            *minimum_baseline,
                           int            *natural_baseline)
{
  WsAlignmentView *self = WS_ALIGNMENT_VIEW (widget);
  double w = 400, h = 200;

  if (self->grid != NULL)
    ws_alignment_renderer_measure (self->renderer, self->grid, state (self), &w, &h);
  /* Scrolled: a small minimum, the whole drawing as natural size. */
  *minimum = orientation == GTK_ORIENTATION_HORIZONTAL ? 160 : 80;
  *natural = (int) ceil (orientation == GTK_ORIENTATION_HORIZONTAL ? w : h);
}

static void
ws_alignment_view_size_allocate (GtkWidget *widget,
                                 int        width,
                                 int        height,
                                 int        baseline)
{
  configure_adjustments (WS_ALIGNMENT_VIEW (widget));
}

/* ------------------------------------------------------------------ */
/* Input                                                                */

static void
select_pattern (WsAlignmentView *self,
                guint            pattern,
                gboolean         emit)
{
  if (pattern == self->state.selected_pattern)
    return;
  self->state.selected_pattern = pattern;
  gtk_widget_queue_draw (GTK_WIDGET (self));
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SELECTED_PATTERN]);
  if (emit && pattern != WS_NONE)
    g_signal_emit (self, signals[PATTERN_ACTIVATED], 0, pattern);
}

static void
toggle_row (WsAlignmentView *self,
            guint            row)
{
  if (self->grid == NULL || row >= self->marked->len)
    return;
  ws_alignment_view_set_row_marked (self, row, !g_array_index (self->marked, guint8, row));
}

/* Shows a folded common segment in full, or folds it again. */
static void
toggle_fold (WsAlignmentView *self,
             guint            start)
{
  if (start >= self->unfolded->len)
    return;
  g_array_index (self->unfolded, guint8, start) ^= 1;
  configure_adjustments (self);
  gtk_widget_queue_resize (GTK_WIDGET (self));
}

static void
pressed_cb (GtkGestureClick *gesture,
            int              n_press,
            double           x,
            double           y,
            WsAlignmentView *self)
{
  guint row, pattern, fold;

  if (self->grid == NULL)
    return;
  gtk_widget_grab_focus (GTK_WIDGET (self));
  if (y < WS_ALIGNMENT_HEADER_HEIGHT)
    y -= vvalue (self);   /* the header does not scroll */
  if (!ws_alignment_renderer_hit_test (self->renderer, self->grid, state (self), x + hvalue (self), y + vvalue (self),
                                       &row, &pattern, &fold))
    return;
  if (fold != WS_NONE)
    {
      toggle_fold (self, fold);
      return;
    }
  if (pattern != WS_NONE)
    select_pattern (self, pattern, TRUE);
  if (row != WS_NONE)
    {
      self->state.focus_row = row;
      self->state.focus_pattern = pattern != WS_NONE ? pattern : self->state.focus_pattern;
      /* A click on the segment name or a double click toggles the mark. */
      if (pattern == WS_NONE || n_press == 2)
        toggle_row (self, row);
      gtk_widget_queue_draw (GTK_WIDGET (self));
    }
}

static void
motion_cb (GtkEventControllerMotion *motion,
           double                    x,
           double                    y,
           WsAlignmentView          *self)
{
  guint row = WS_NONE, pattern = WS_NONE;

  if (self->grid != NULL && y >= WS_ALIGNMENT_HEADER_HEIGHT)
    ws_alignment_renderer_hit_test (self->renderer, self->grid, state (self), x + hvalue (self), y + vvalue (self),
                                    &row, &pattern, NULL);
  if (row != self->state.hover_row)
    {
      const WsAlignmentCell *cell = NULL;

      self->state.hover_row = row;
      gtk_widget_queue_draw (GTK_WIDGET (self));
      if (row != WS_NONE)
        cell = ws_alignment_grid_get_cell (self->grid, row, pattern != WS_NONE ? pattern : 0);
      if (cell != NULL && cell->function != NULL)
        {
          g_autofree char *tip = g_strdup_printf ("%s\n%s", cell->function, cell->module ? cell->module : "");
          gtk_widget_set_tooltip_text (GTK_WIDGET (self), tip);
        }
      else
        gtk_widget_set_tooltip_text (GTK_WIDGET (self), NULL);
    }
}

static void
leave_cb (GtkEventControllerMotion *motion,
          WsAlignmentView          *self)
{
  self->state.hover_row = WS_NONE;
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

/* The next row shown (not a fold line) from display index @from in
 * direction @step, or @row itself if none. */
static guint
step_row (GArray *display,
          guint   row,
          int     step)
{
  gint from = -1;

  for (guint i = 0; i < display->len && from < 0; i++)
    if (g_array_index (display, gint32, i) == (gint32) row)
      from = i;
  if (from < 0)
    return row;
  for (gint i = from + step; i >= 0 && i < (gint) display->len; i += step)
    if (g_array_index (display, gint32, i) >= 0)
      return g_array_index (display, gint32, i);
  return row;
}

static gboolean
key_pressed_cb (GtkEventControllerKey *controller,
                guint                  keyval,
                guint                  keycode,
                GdkModifierType        modifiers,
                WsAlignmentView       *self)
{
  g_autoptr(GArray) display = NULL;
  guint n_rows, n_patterns, row, pattern;

  if (self->grid == NULL || (modifiers & (GDK_CONTROL_MASK | GDK_ALT_MASK)) != 0)
    return FALSE;
  n_rows = ws_alignment_grid_get_n_rows (self->grid);
  n_patterns = ws_alignment_grid_get_n_patterns (self->grid);
  if (n_rows == 0)
    return FALSE;
  display = ws_alignment_renderer_get_display (self->renderer, self->grid, state (self));
  row = self->state.focus_row < n_rows ? self->state.focus_row : 0;
  pattern = self->state.focus_pattern < n_patterns ? self->state.focus_pattern : 0;

  switch (keyval)
    {
    case GDK_KEY_Up:
    case GDK_KEY_KP_Up:
      row = step_row (display, row, -1);
      break;
    case GDK_KEY_Down:
    case GDK_KEY_KP_Down:
      row = step_row (display, row, +1);
      break;
    case GDK_KEY_Left:
    case GDK_KEY_KP_Left:
      pattern = pattern > 0 ? pattern - 1 : 0;
      select_pattern (self, pattern, TRUE);
      break;
    case GDK_KEY_Right:
    case GDK_KEY_KP_Right:
      pattern = MIN (pattern + 1, n_patterns - 1);
      select_pattern (self, pattern, TRUE);
      break;
    case GDK_KEY_Home:
      row = 0;
      break;
    case GDK_KEY_End:
      row = n_rows - 1;
      break;
    case GDK_KEY_space:
      toggle_row (self, row);
      break;
    case GDK_KEY_Return:
    case GDK_KEY_KP_Enter:
      /* Enter folds or unfolds the common segment of the cursor. */
      if (ws_alignment_grid_get_row_kind (self->grid, row) == WS_ALIGNMENT_ROW_COMMON)
        toggle_fold (self, ws_alignment_grid_get_segment (self->grid, row, NULL));
      break;
    default:
      return FALSE;
    }
  self->state.focus_row = row;
  self->state.focus_pattern = pattern;
  reveal_row (self, row, pattern);
  gtk_widget_queue_draw (GTK_WIDGET (self));
  update_accessible (self);
  return TRUE;
}

static void
focus_changed_cb (WsAlignmentView *self)
{
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

/* ------------------------------------------------------------------ */
/* GObject                                                              */

static void
ws_alignment_view_dispose (GObject *object)
{
  WsAlignmentView *self = WS_ALIGNMENT_VIEW (object);

  if (self->hadjustment)
    g_signal_handlers_disconnect_by_data (self->hadjustment, self);
  if (self->vadjustment)
    g_signal_handlers_disconnect_by_data (self->vadjustment, self);
  g_clear_object (&self->hadjustment);
  g_clear_object (&self->vadjustment);
  g_clear_pointer (&self->grid, ws_alignment_grid_unref);
  g_clear_object (&self->renderer);
  g_clear_pointer (&self->marked, g_array_unref);
  g_clear_pointer (&self->unfolded, g_array_unref);

  G_OBJECT_CLASS (ws_alignment_view_parent_class)->dispose (object);
}

static void
ws_alignment_view_get_property (GObject    *object,
                                guint       prop_id,
                                GValue     *value,
                                GParamSpec *pspec)
{
  WsAlignmentView *self = WS_ALIGNMENT_VIEW (object);

  switch (prop_id)
    {
    case PROP_SELECTED_PATTERN:
      g_value_set_uint (value, self->state.selected_pattern);
      break;
    case PROP_HADJUSTMENT:
      g_value_set_object (value, self->hadjustment);
      break;
    case PROP_VADJUSTMENT:
      g_value_set_object (value, self->vadjustment);
      break;
    case PROP_HSCROLL_POLICY:
      g_value_set_enum (value, self->hscroll_policy);
      break;
    case PROP_VSCROLL_POLICY:
      g_value_set_enum (value, self->vscroll_policy);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
ws_alignment_view_set_property (GObject      *object,
                                guint         prop_id,
                                const GValue *value,
                                GParamSpec   *pspec)
{
  WsAlignmentView *self = WS_ALIGNMENT_VIEW (object);

  switch (prop_id)
    {
    case PROP_SELECTED_PATTERN:
      ws_alignment_view_set_selected_pattern (self, g_value_get_uint (value));
      break;
    case PROP_HADJUSTMENT:
      set_adjustment (self, &self->hadjustment, g_value_get_object (value));
      break;
    case PROP_VADJUSTMENT:
      set_adjustment (self, &self->vadjustment, g_value_get_object (value));
      break;
    case PROP_HSCROLL_POLICY:
      self->hscroll_policy = g_value_get_enum (value);
      gtk_widget_queue_resize (GTK_WIDGET (self));
      break;
    case PROP_VSCROLL_POLICY:
      self->vscroll_policy = g_value_get_enum (value);
      gtk_widget_queue_resize (GTK_WIDGET (self));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
ws_alignment_view_class_init (WsAlignmentViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = ws_alignment_view_dispose;
  object_class->get_property = ws_alignment_view_get_property;
  object_class->set_property = ws_alignment_view_set_property;

  widget_class->snapshot = ws_alignment_view_snapshot;
  widget_class->measure = ws_alignment_view_measure;
  widget_class->size_allocate = ws_alignment_view_size_allocate;
  widget_class->css_changed = ws_alignment_view_css_changed;

  properties[PROP_SELECTED_PATTERN] =
    g_param_spec_uint ("selected-pattern", NULL, NULL, 0, G_MAXUINT, G_MAXUINT,
                       G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  g_object_class_install_properties (object_class, N_PROPS, properties);
  g_object_class_override_property (object_class, PROP_HADJUSTMENT, "hadjustment");
  g_object_class_override_property (object_class, PROP_VADJUSTMENT, "vadjustment");
  g_object_class_override_property (object_class, PROP_HSCROLL_POLICY, "hscroll-policy");
  g_object_class_override_property (object_class, PROP_VSCROLL_POLICY, "vscroll-policy");

  /**
   * WsAlignmentView::pattern-activated:
   * @pattern: the column the user picked
   */
  signals[PATTERN_ACTIVATED] =
    g_signal_new ("pattern-activated", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 1, G_TYPE_UINT);
  /**
   * WsAlignmentView::marks-changed:
   *
   * The rows marked for a signature changed.
   */
  signals[MARKS_CHANGED] =
    g_signal_new ("marks-changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 0);

  gtk_widget_class_set_css_name (widget_class, "alignmentview");
  /* Rows (aligned positions) by columns (patterns), walked with a cursor. */
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_GRID);
}

static void
ws_alignment_view_init (WsAlignmentView *self)
{
  static const WsViewGestures gestures = {
    .click_button = GDK_BUTTON_PRIMARY,
    .pressed = G_CALLBACK (pressed_cb),
    .motion = G_CALLBACK (motion_cb),
    .leave = G_CALLBACK (leave_cb),
    .key_pressed = G_CALLBACK (key_pressed_cb),
    .focus_changed = G_CALLBACK (focus_changed_cb),
  };

  self->renderer = ws_alignment_renderer_new ();
  self->marked = g_array_new (FALSE, TRUE, sizeof (guint8));
  self->unfolded = g_array_new (FALSE, TRUE, sizeof (guint8));
  ws_alignment_state_init (&self->state);
  gtk_widget_set_focusable (GTK_WIDGET (self), TRUE);
  gtk_widget_set_overflow (GTK_WIDGET (self), GTK_OVERFLOW_HIDDEN);

  ws_view_gestures_attach (GTK_WIDGET (self), &gestures, self);

  gtk_accessible_update_property (GTK_ACCESSIBLE (self),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, _("Alignment of the cluster's patterns"),
                                  -1);
  update_accessible (self);
}

GtkWidget *
ws_alignment_view_new (void)
{
  return g_object_new (WS_TYPE_ALIGNMENT_VIEW, NULL);
}

/**
 * ws_alignment_view_set_grid:
 * @grid: (nullable): the alignment to show
 *
 * Shows @grid from its top, with no marks and no selection.
 */
void
ws_alignment_view_set_grid (WsAlignmentView *self,
                            WsAlignmentGrid *grid)
{
  g_return_if_fail (WS_IS_ALIGNMENT_VIEW (self));

  if (grid == self->grid)
    return;
  g_clear_pointer (&self->grid, ws_alignment_grid_unref);
  if (grid != NULL)
    self->grid = ws_alignment_grid_ref (grid);
  g_array_set_size (self->marked, 0);
  g_array_set_size (self->unfolded, 0);
  if (grid != NULL)
    {
      g_array_set_size (self->marked, ws_alignment_grid_get_n_rows (grid));
      g_array_set_size (self->unfolded, ws_alignment_grid_get_n_rows (grid));
    }
  self->state.selected_pattern = WS_NONE;
  self->state.hover_row = WS_NONE;
  self->state.focus_row = WS_NONE;
  self->state.focus_pattern = WS_NONE;
  if (self->hadjustment)
    gtk_adjustment_set_value (self->hadjustment, 0);
  if (self->vadjustment)
    gtk_adjustment_set_value (self->vadjustment, 0);
  update_accessible (self);
  gtk_widget_queue_resize (GTK_WIDGET (self));
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SELECTED_PATTERN]);
  g_signal_emit (self, signals[MARKS_CHANGED], 0);
}

/**
 * ws_alignment_view_get_grid:
 * Returns: (transfer none) (nullable):
 */
WsAlignmentGrid *
ws_alignment_view_get_grid (WsAlignmentView *self)
{
  g_return_val_if_fail (WS_IS_ALIGNMENT_VIEW (self), NULL);
  return self->grid;
}

/**
 * ws_alignment_view_set_selected_pattern:
 * @pattern: a column, or %WS_NONE
 *
 * Rings the column and scrolls it into view; does not emit
 * ::pattern-activated.
 */
void
ws_alignment_view_set_selected_pattern (WsAlignmentView *self,
                                        guint            pattern)
{
  g_return_if_fail (WS_IS_ALIGNMENT_VIEW (self));

  if (self->grid == NULL || pattern >= ws_alignment_grid_get_n_patterns (self->grid))
    pattern = WS_NONE;
  select_pattern (self, pattern, FALSE);
  if (pattern != WS_NONE)
    {
      self->state.focus_pattern = pattern;
      reveal_row (self, self->state.focus_row != WS_NONE ? self->state.focus_row : 0, pattern);
    }
}

guint
ws_alignment_view_get_selected_pattern (WsAlignmentView *self)
{
  g_return_val_if_fail (WS_IS_ALIGNMENT_VIEW (self), WS_NONE);
  return self->state.selected_pattern;
}

gboolean
ws_alignment_view_get_row_marked (WsAlignmentView *self,
                                  guint            row)
{
  g_return_val_if_fail (WS_IS_ALIGNMENT_VIEW (self), FALSE);
  return row < self->marked->len && g_array_index (self->marked, guint8, row);
}

void
ws_alignment_view_set_row_marked (WsAlignmentView *self,
                                  guint            row,
                                  gboolean         marked)
{
  g_return_if_fail (WS_IS_ALIGNMENT_VIEW (self));
  g_return_if_fail (row < self->marked->len);

  if (!!g_array_index (self->marked, guint8, row) == !!marked)
    return;
  g_array_index (self->marked, guint8, row) = marked ? 1 : 0;
  gtk_widget_queue_draw (GTK_WIDGET (self));
  g_signal_emit (self, signals[MARKS_CHANGED], 0);
}

guint
ws_alignment_view_get_n_marked (WsAlignmentView *self)
{
  guint n = 0;

  g_return_val_if_fail (WS_IS_ALIGNMENT_VIEW (self), 0);
  for (guint r = 0; r < self->marked->len; r++)
    n += g_array_index (self->marked, guint8, r) != 0;
  return n;
}

void
ws_alignment_view_clear_marks (WsAlignmentView *self)
{
  g_return_if_fail (WS_IS_ALIGNMENT_VIEW (self));

  if (ws_alignment_view_get_n_marked (self) == 0)
    return;
  memset (self->marked->data, 0, self->marked->len);
  gtk_widget_queue_draw (GTK_WIDGET (self));
  g_signal_emit (self, signals[MARKS_CHANGED], 0);
}

/**
 * ws_alignment_view_get_renderer:
 * Returns: (transfer none):
 */
WsAlignmentRenderer *
ws_alignment_view_get_renderer (WsAlignmentView *self)
{
  g_return_val_if_fail (WS_IS_ALIGNMENT_VIEW (self), NULL);
  return self->renderer;
}
