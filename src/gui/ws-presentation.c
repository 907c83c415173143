/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Presenting findings.  Each screen is drawn with Cairo from the report's
 * recorded figure, so it is sharp at any projector resolution; the type
 * is sized from the screen height so it stays legible from the back of a
 * room, and a figure is never drawn smaller than readable
 * (ws-slide-layout.c): one too big for the screen at that size is dragged
 * or scrolled.
 */
#include "config.h"

#include <adwaita.h>
#include <glib/gi18n.h>

#include "ws-presentation.h"
#include "ws-report-note.h"
#include "ws-slide-layout.h"

struct _WsPresentation
{
  GtkWindow       parent_instance;

  GtkDrawingArea *area;
  WsReport       *report;     /* light figures */
  WsReport       *dark;       /* dark figures, made on first use */
  guint           position;
  WsSlideLayout   layout;     /* the screen last drawn */
  double          figure_w;   /* its figure's size, figure units (0: none) */
  double          figure_h;
  double          pan_x;      /* screen pixels the figure is moved left… */
  double          pan_y;      /* …and up, when it overflows its region */
  double          drag_x;     /* the pan when a drag began */
  double          drag_y;
  gboolean        start_pending;  /* a new screen: pan to where it starts */
};

G_DEFINE_FINAL_TYPE (WsPresentation, ws_presentation, GTK_TYPE_WINDOW)

static guint
n_slides (WsPresentation *self)
{
  return ws_pin_list_get_n (ws_session_file_get_findings (ws_report_get_session (self->report)));
}

static gboolean
is_dark (void)
{
  return adw_style_manager_get_dark (adw_style_manager_get_default ());
}

static WsReport *
current_report (WsPresentation *self)
{
  if (!is_dark ())
    return self->report;
  if (self->dark == NULL)
    {
      self->dark = ws_report_new (ws_report_get_session (self->report), NULL);
      if (self->dark != NULL)
        ws_report_set_dark (self->dark, TRUE);
    }
  return self->dark ? self->dark : self->report;
}

static double
show_markup (cairo_t    *cr,
             const char *markup,
             double      size,
             double      x,
             double      y,
             double      width,
             double      max_height,
             double      grey)
{
  PangoLayout *layout = pango_cairo_create_layout (cr);
  PangoFontDescription *font = pango_font_description_new ();
  int w, h;

  pango_font_description_set_family (font, "Cantarell, Noto Sans, sans-serif");
  pango_font_description_set_absolute_size (font, size * PANGO_SCALE);
  pango_layout_set_font_description (layout, font);
  pango_font_description_free (font);
  pango_layout_set_width (layout, (int) (width * PANGO_SCALE));
  pango_layout_set_wrap (layout, PANGO_WRAP_WORD_CHAR);
  pango_layout_set_height (layout, (int) (max_height * PANGO_SCALE));
  pango_layout_set_ellipsize (layout, PANGO_ELLIPSIZE_END);
  pango_layout_set_markup (layout, markup, -1);
  cairo_set_source_rgb (cr, grey, grey, grey);
  cairo_move_to (cr, x, y);
  pango_cairo_show_layout (cr, layout);
  pango_layout_get_size (layout, &w, &h);
  g_object_unref (layout);
  return (double) h / PANGO_SCALE;
}

/* The height @markup takes at @size over @width (no more than @max_height). */
static double
measure_markup (cairo_t    *cr,
                const char *markup,
                double      size,
                double      width,
                double      max_height)
{
  double h;

  cairo_save (cr);
  cairo_rectangle (cr, 0, 0, 0, 0);
  cairo_clip (cr);
  h = show_markup (cr, markup, size, 0, 0, width, max_height, 0);
  cairo_restore (cr);
  return h;
}

/* Keeps the pan inside what the figure overflows its region by. */
static void
clamp_pan (WsPresentation *self)
{
  const WsSlideLayout *l = &self->layout;

  self->pan_x = CLAMP (self->pan_x, 0, MAX (self->figure_w * l->scale - l->figure_w, 0));
  self->pan_y = CLAMP (self->pan_y, 0, MAX (self->figure_h * l->scale - l->figure_h, 0));
}

static void
draw_figure (WsPresentation *self,
             cairo_t        *cr,
             WsReportFigure *figure)
{
  const WsSlideLayout *l = &self->layout;
  double w = figure->recording.width * l->scale, h = figure->recording.height * l->scale;

  if (self->start_pending)
    {
      /* from the figure's left edge, half way down (where a ready tree's
       * root is) */
      self->pan_x = 0;
      self->pan_y = (h - l->figure_h) / 2;
      self->start_pending = FALSE;
    }
  clamp_pan (self);
  cairo_save (cr);
  cairo_rectangle (cr, l->figure_x, l->figure_y, l->figure_w, l->figure_h);
  cairo_clip (cr);
  /* centred where it fits, from its top left (moved by the pan) where not */
  cairo_translate (cr, l->figure_x + (w < l->figure_w ? (l->figure_w - w) / 2 : -self->pan_x),
                   l->figure_y + (h < l->figure_h ? 0 : -self->pan_y));
  cairo_scale (cr, l->scale, l->scale);
  cairo_set_source_surface (cr, figure->recording.surface, 0, 0);
  cairo_paint (cr);
  cairo_restore (cr);
}

static void
draw_slide (GtkDrawingArea *area,
            cairo_t        *cr,
            int             width,
            int             height,
            gpointer        user_data)
{
  WsPresentation *self = user_data;
  WsReport *report = current_report (self);
  WsPin *pin = ws_pin_list_get (ws_session_file_get_findings (ws_report_get_session (report)), self->position);
  const char *why = NULL;
  WsReportFigure *figure = ws_report_get_figure (report, self->position, &why);
  g_autofree char *title = g_markup_printf_escaped ("<b>%s</b>", ws_pin_get_title (pin));
  g_autofree char *note = ws_report_note_to_pango (ws_pin_get_note (pin));
  g_autofree char *counter = g_strdup_printf ("%u / %u", self->position + 1, n_slides (self));
  gboolean dark = is_dark ();
  double fg = dark ? 0.95 : 0.1;
  WsSlideLayout *l = &self->layout;
  double title_h, note_h;

  ws_slide_layout_init (l, width, height);
  title_h = measure_markup (cr, title, l->title_size, width - 2 * l->margin, l->title_size * 2.6);
  note_h = *note ? measure_markup (cr, note, l->note_size, width - 2 * l->margin, height / 5.0) : 0;
  self->figure_w = figure != NULL ? figure->recording.width : 0;
  self->figure_h = figure != NULL ? figure->recording.height : 0;
  ws_slide_layout_place (l, width, height, title_h, note_h, self->figure_w, self->figure_h);

  cairo_set_source_rgb (cr, dark ? 0.12 : 1, dark ? 0.12 : 1, dark ? 0.13 : 1);
  cairo_paint (cr);
  show_markup (cr, title, l->title_size, l->margin, l->title_y, width - 2 * l->margin, l->title_size * 2.6, fg);
  if (figure != NULL)
    draw_figure (self, cr, figure);
  else
    {
      g_autofree char *text = g_markup_printf_escaped (_("This view could not be redrawn: %s"), why);
      show_markup (cr, text, l->note_size, l->margin, l->figure_y, width - 2 * l->margin, height / 4.0, fg);
    }
  if (*note)
    show_markup (cr, note, l->note_size, l->margin, l->note_y, width - 2 * l->margin, height / 5.0, fg);
  if (figure != NULL && l->overflows)
    {
      /* Translators: at the foot of a presented figure too big for the screen at a readable size */
      g_autofree char *hint = g_markup_printf_escaped ("%s", _("Drag or scroll to see the rest of the figure"));
      show_markup (cr, hint, height / 60.0, l->margin, height - l->margin * 0.9, width / 2, l->margin, 0.5);
    }
  show_markup (cr, counter, height / 50.0, width - l->margin * 4, height - l->margin * 0.9, l->margin * 4, l->margin, 0.5);
}

/**
 * ws_presentation_get_text_px:
 *
 * Returns: the smallest body text of the figure last drawn, in screen
 *   pixels (0 if the screen had no figure)
 */
double
ws_presentation_get_text_px (WsPresentation *self)
{
  g_return_val_if_fail (WS_IS_PRESENTATION (self), 0);
  return self->figure_w > 0 ? ws_slide_layout_text_px (&self->layout) : 0;
}

static void
drag_begin_cb (GtkGestureDrag *drag,
               double          x,
               double          y,
               WsPresentation *self)
{
  self->drag_x = self->pan_x;
  self->drag_y = self->pan_y;
}

static void
drag_update_cb (GtkGestureDrag *drag,
                double          dx,
                double          dy,
                WsPresentation *self)
{
  self->pan_x = self->drag_x - dx;
  self->pan_y = self->drag_y - dy;
  clamp_pan (self);
  gtk_widget_queue_draw (GTK_WIDGET (self->area));
}

static gboolean
scroll_cb (GtkEventControllerScroll *scroll,
           double                    dx,
           double                    dy,
           WsPresentation           *self)
{
  double step = self->layout.figure_h / 8;

  if (!self->layout.overflows)
    return FALSE;
  self->pan_x += dx * step;
  self->pan_y += dy * step;
  clamp_pan (self);
  gtk_widget_queue_draw (GTK_WIDGET (self->area));
  return TRUE;
}

guint
ws_presentation_get_position (WsPresentation *self)
{
  g_return_val_if_fail (WS_IS_PRESENTATION (self), 0);
  return self->position;
}

void
ws_presentation_step (WsPresentation *self,
                      int             delta)
{
  int n, to;

  g_return_if_fail (WS_IS_PRESENTATION (self));

  n = (int) n_slides (self);
  to = CLAMP ((int) self->position + delta, 0, MAX (n - 1, 0));
  if ((guint) to == self->position)
    return;
  self->position = to;
  /* from the figure's left edge, half way down (where a ready tree's root is) */
  self->start_pending = TRUE;
  gtk_widget_queue_draw (GTK_WIDGET (self->area));
}

static gboolean
key_pressed_cb (GtkEventControllerKey *controller,
                guint                  keyval,
                guint                  keycode,
                GdkModifierType        state,
                WsPresentation        *self)
{
  switch (keyval)
    {
    case GDK_KEY_Right: case GDK_KEY_Down: case GDK_KEY_Page_Down: case GDK_KEY_space:
      ws_presentation_step (self, 1);
      return TRUE;
    case GDK_KEY_Left: case GDK_KEY_Up: case GDK_KEY_Page_Up: case GDK_KEY_BackSpace:
      ws_presentation_step (self, -1);
      return TRUE;
    case GDK_KEY_Home:
      ws_presentation_step (self, -(int) self->position);
      return TRUE;
    case GDK_KEY_End:
      ws_presentation_step (self, (int) n_slides (self));
      return TRUE;
    case GDK_KEY_Escape:
      gtk_window_destroy (GTK_WINDOW (self));
      return TRUE;
    default:
      return FALSE;
    }
}

static void
ws_presentation_dispose (GObject *object)
{
  WsPresentation *self = WS_PRESENTATION (object);

  g_clear_object (&self->report);
  g_clear_object (&self->dark);
  G_OBJECT_CLASS (ws_presentation_parent_class)->dispose (object);
}

static void
ws_presentation_class_init (WsPresentationClass *klass)
{
  G_OBJECT_CLASS (klass)->dispose = ws_presentation_dispose;
  gtk_widget_class_set_css_name (GTK_WIDGET_CLASS (klass), "presentation");
}

static void
ws_presentation_init (WsPresentation *self)
{
  GtkEventController *keys = gtk_event_controller_key_new ();
  GtkGesture *drag = gtk_gesture_drag_new ();
  GtkEventController *scroll = gtk_event_controller_scroll_new (GTK_EVENT_CONTROLLER_SCROLL_BOTH_AXES);

  self->area = GTK_DRAWING_AREA (gtk_drawing_area_new ());
  gtk_widget_set_focusable (GTK_WIDGET (self->area), TRUE);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->area), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                  _("Presentation of the findings: arrows step, Escape leaves"), -1);
  gtk_drawing_area_set_draw_func (self->area, draw_slide, self, NULL);
  gtk_window_set_child (GTK_WINDOW (self), GTK_WIDGET (self->area));
  g_signal_connect (keys, "key-pressed", G_CALLBACK (key_pressed_cb), self);
  gtk_widget_add_controller (GTK_WIDGET (self), keys);
  g_signal_connect (drag, "drag-begin", G_CALLBACK (drag_begin_cb), self);
  g_signal_connect (drag, "drag-update", G_CALLBACK (drag_update_cb), self);
  gtk_widget_add_controller (GTK_WIDGET (self->area), GTK_EVENT_CONTROLLER (drag));
  g_signal_connect (scroll, "scroll", G_CALLBACK (scroll_cb), self);
  gtk_widget_add_controller (GTK_WIDGET (self->area), scroll);
  g_signal_connect_object (adw_style_manager_get_default (), "notify::dark",
                           G_CALLBACK (gtk_widget_queue_draw), self->area, G_CONNECT_SWAPPED);
  gtk_window_set_title (GTK_WINDOW (self), _("Findings"));
}

/**
 * ws_presentation_new:
 * @first: the finding to start on
 *
 * Returns: (transfer none): a full-screen window, not yet shown
 */
GtkWindow *
ws_presentation_new (WsReport  *report,
                     GtkWindow *parent,
                     guint      first)
{
  WsPresentation *self;

  g_return_val_if_fail (WS_IS_REPORT (report), NULL);

  self = g_object_new (WS_TYPE_PRESENTATION, NULL);
  self->report = g_object_ref (report);
  self->position = MIN (first, MAX (n_slides (self), 1) - 1);
  self->start_pending = TRUE;
  /* Full screen where a window manager honours it; else as big as the
   * window it came from. */
  gtk_window_set_default_size (GTK_WINDOW (self),
                               parent ? MAX (gtk_widget_get_width (GTK_WIDGET (parent)), 640) : 1280,
                               parent ? MAX (gtk_widget_get_height (GTK_WIDGET (parent)), 400) : 800);
  if (parent != NULL)
    {
      gtk_window_set_transient_for (GTK_WINDOW (self), parent);
      gtk_window_set_application (GTK_WINDOW (self), gtk_window_get_application (parent));
    }
  gtk_window_fullscreen (GTK_WINDOW (self));
  return GTK_WINDOW (self);
}
