/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * WsModelWindow (see the header).  It keeps its own reference to the
 * result it was opened from: re-scoring after a flag replaces the
 * session's result, not the one this view explains.
 */
#include "config.h"

#include <glib/gi18n.h>
#include <math.h>

#include "ws-anomaly-plot.h"
#include "ws-export-dialog.h"
#include "ws-model-window.h"
#include "ws-time-format.h"

struct _WsModelWindow
{
  AdwWindow        parent_instance;

  WsAnomalyResult *result;
  guint            model;
  double           marked;
  GtkWidget       *area;
  AdwToastOverlay *toasts;
};

G_DEFINE_FINAL_TYPE (WsModelWindow, ws_model_window, ADW_TYPE_WINDOW)

static void
ws_model_window_dispose (GObject *object)
{
  WsModelWindow *self = WS_MODEL_WINDOW (object);

  g_clear_object (&self->result);
  G_OBJECT_CLASS (ws_model_window_parent_class)->dispose (object);
}

static void
ws_model_window_class_init (WsModelWindowClass *klass)
{
  G_OBJECT_CLASS (klass)->dispose = ws_model_window_dispose;
}

static void
ws_model_window_init (WsModelWindow *self)
{
}

static void
draw_cb (GtkDrawingArea *area,
         cairo_t        *cr,
         int             width,
         int             height,
         gpointer        user_data)
{
  WsModelWindow *self = user_data;

  ws_anomaly_plot_draw (cr, width, height, ws_anomaly_result_get_model (self->result, self->model),
                        self->marked, adw_style_manager_get_dark (adw_style_manager_get_default ()));
}

static gboolean
export_cb (GtkWidget   *widget,
           const char  *path,
           GError     **error)
{
  WsModelWindow *self = WS_MODEL_WINDOW (widget);

  return ws_anomaly_plot_export (path, ws_anomaly_result_get_model (self->result, self->model),
                                 self->marked, 800, 480, error);
}

static void
toast_cb (GtkWidget  *widget,
          const char *message)
{
  adw_toast_overlay_add_toast (WS_MODEL_WINDOW (widget)->toasts, adw_toast_new (message));
}

static void
pin_clicked_cb (WsModelWindow *self)
{
  GtkWindow *parent = gtk_window_get_transient_for (GTK_WINDOW (self));

  if (parent != NULL)
    gtk_widget_activate_action (GTK_WIDGET (parent), "win.pin-wait-model", NULL);
}

static void
export_clicked_cb (WsModelWindow *self)
{
  ws_export_dialog_show (GTK_WIDGET (self), _("Export the Wait Model"), "wait-model.svg", export_cb, toast_cb);
}

/* The figure's content in words, for screen readers and for the record. */
static char *
describe (const WsAnomalyModel *m,
          gint64                duration,
          double                score)
{
  g_autofree char *dur = ws_format_duration (duration);
  g_autofree char *from = ws_format_duration ((WsTime) ceil (exp (MIN (m->cut, 60.0))));

  g_autofree char *gaussians = g_strdup_printf (ngettext ("%u Gaussian", "%u Gaussians", m->gmm.n_components),
                                                m->gmm.n_components);

  g_autofree char *text = NULL;
  g_autofree char *kind = ws_wait_signature_to_display (m->key);
  g_autofree char *summary = NULL;
  guint n_marked = 0;

  for (guint k = 0; k < m->gmm.n_components; k++)
    n_marked += (m->marked_components & (1u << k)) != 0;
  /* Translators: the model view's summary; the first three %s are
   * durations, the last "3 Gaussians" */
  text = g_strdup_printf (ngettext ("This wait lasted %s; P(D ≥ d) = %.3g.  Its kind is anomalous from %s "
                                    "(threshold %.3g), from a mixture of %s fitted on %u wait.",
                                    "This wait lasted %s; P(D ≥ d) = %.3g.  Its kind is anomalous from %s "
                                    "(threshold %.3g), from a mixture of %s fitted on %u waits.", m->samples->len),
                          dur, score, from, m->threshold, gaussians, m->samples->len);
  /* Translators: the model view's summary, then the wait's kind: its
   * frames caller first, the kernel's blocking function after ⇒ */
  summary = g_strdup_printf (_("%s Its kind, caller first: %s."), text, kind);
  g_free (text);
  text = g_steal_pointer (&summary);
  if (n_marked == 0)
    return g_steal_pointer (&text);
  /* Translators: after the model view's summary; the flags' verdict on
   * the mixture's slow components (drawn red) */
  return g_strdup_printf (ngettext ("%s Your flags call %u of its Gaussians anomalous (in red): every wait more "
                                    "probably from it than from the rest is.",
                                    "%s Your flags call %u of its Gaussians anomalous (in red): every wait more "
                                    "probably from them than from the rest is.", n_marked),
                          text, n_marked);
}

/**
 * ws_model_window_new:
 * @score: the wait's score in @result
 * @duration: its duration (ns)
 */
WsModelWindow *
ws_model_window_new (GtkWindow         *parent,
                     WsAnomalyResult   *result,
                     const WsWaitScore *score,
                     gint64             duration)
{
  WsModelWindow *self = g_object_new (WS_TYPE_MODEL_WINDOW, "transient-for", parent,
                                      "default-width", 820, "default-height", 560,
                                      "title", _("Wait Model"), NULL);
  const WsAnomalyModel *m;
  GtkWidget *box, *header, *button, *summary;
  g_autofree char *text = NULL;

  self->result = g_object_ref (result);
  self->model = score->model;
  self->marked = log ((double) MAX (duration, 1));
  m = ws_anomaly_result_get_model (result, self->model);

  box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);
  header = adw_header_bar_new ();
  button = gtk_button_new_with_mnemonic (_("_Export…"));
  gtk_widget_set_tooltip_text (button, _("Save the figure as PNG, SVG or PDF"));
  g_signal_connect_swapped (button, "clicked", G_CALLBACK (export_clicked_cb), self);
  adw_header_bar_pack_end (ADW_HEADER_BAR (header), button);
  /* Pinning is the main window's (it knows the trace and the findings). */
  button = gtk_button_new_from_icon_name ("view-pin-symbolic");
  gtk_widget_set_tooltip_text (button, _("Pin this model to the findings"));
  gtk_accessible_update_property (GTK_ACCESSIBLE (button), GTK_ACCESSIBLE_PROPERTY_LABEL, _("Pin"), -1);
  g_signal_connect_swapped (button, "clicked", G_CALLBACK (pin_clicked_cb), self);
  adw_header_bar_pack_start (ADW_HEADER_BAR (header), button);
  gtk_box_append (GTK_BOX (box), header);

  self->area = gtk_drawing_area_new ();
  gtk_widget_set_vexpand (self->area, TRUE);
  gtk_drawing_area_set_draw_func (GTK_DRAWING_AREA (self->area), draw_cb, self, NULL);
  text = describe (m, duration, score->score);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->area), GTK_ACCESSIBLE_PROPERTY_LABEL, m->key,
                                  GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, text, -1);
  gtk_box_append (GTK_BOX (box), self->area);

  summary = gtk_label_new (text);
  gtk_label_set_wrap (GTK_LABEL (summary), TRUE);
  gtk_label_set_selectable (GTK_LABEL (summary), TRUE);
  gtk_widget_set_margin_start (summary, 12);
  gtk_widget_set_margin_end (summary, 12);
  gtk_widget_set_margin_top (summary, 6);
  gtk_widget_set_margin_bottom (summary, 12);
  gtk_box_append (GTK_BOX (box), summary);

  self->toasts = ADW_TOAST_OVERLAY (adw_toast_overlay_new ());
  adw_toast_overlay_set_child (self->toasts, box);
  adw_window_set_content (ADW_WINDOW (self), GTK_WIDGET (self->toasts));
  return self;
}
