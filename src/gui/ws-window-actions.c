/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The window's actions (issue 7 split them out of ws-window.c): which are
 * enabled for the current document, closing and cancelling, exporting the
 * timeline and the trace, the zoom buttons forwarded to the timeline, and
 * asking for an analysis of the selected window.
 */
#include "config.h"
#include "ws-chooser-folder.h"

#include <glib/gi18n.h>

#include "ws-chrome-trace.h"
#include "ws-error.h"
#include "ws-export-dialog.h"
#include "ws-export.h"
#include "ws-perf-importer.h"
#include "ws-window-private.h"

gboolean
_ws_window_is_ready (WsWindow *self)
{
  return self->current != NULL && ws_document_get_state (self->current) == WS_DOCUMENT_READY;
}

void
_ws_window_update_actions (WsWindow *self)
{
  gboolean ready = _ws_window_is_ready (self);
  gboolean selection = ready && ws_timeline_viewport_get_selection (ws_document_get_viewport (self->current), NULL, NULL, NULL);
  /* Full names, as installed: a bare "zoom-in" matches nothing, and
   * the actions stayed enabled with no trace. */
  static const char *const need_ready[] = {
    "win.export-timeline", "win.export-chrome", "win.zoom-in", "win.zoom-out", "win.zoom-fit", "win.search",
    "win.inspect-trace",
  };

  for (guint i = 0; i < G_N_ELEMENTS (need_ready); i++)
    gtk_widget_action_set_enabled (GTK_WIDGET (self), need_ready[i], ready);
  /* Timeline controls only where there is a timeline. */
  gtk_widget_set_visible (self->zoom_box, ready);
  gtk_widget_set_visible (GTK_WIDGET (self->search_button), ready);
  /* The Slowest list ranks the loaded traces: nothing to show without one. */
  if (self->slowest_button != NULL)
    gtk_widget_set_visible (GTK_WIDGET (self->slowest_button), ready);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.show-slowest", ready);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.export-sqlite", ready);
  if (!ready)
    gtk_search_bar_set_search_mode (self->search_bar, FALSE);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.zoom-back",
                                 ready && ws_timeline_viewport_can_go_back (ws_document_get_viewport (self->current)));
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.search-next", ready && self->search != NULL);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.search-previous", ready && self->search != NULL);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.show-wait-graph", selection);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.show-ready-tree", selection);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.show-critical-path", selection);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.zoom-selection", selection);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.clear-selection", ready);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.close-trace", self->current != NULL);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.cancel-load",
                                 self->current != NULL && ws_document_get_state (self->current) == WS_DOCUMENT_LOADING);
}

static void
close_trace_action (GtkWidget  *widget,
                    const char *action_name,
                    GVariant   *param)
{
  WsWindow *self = WS_WINDOW (widget);

  if (self->current != NULL)
    _ws_window_close_document (self, self->current);
}

static void
cancel_load_action (GtkWidget  *widget,
                    const char *action_name,
                    GVariant   *param)
{
  WsWindow *self = WS_WINDOW (widget);

  if (self->current != NULL)
    ws_document_cancel (self->current);
}

/**
 * ws_window_export_timeline:
 * @path: ends in .png, .svg or .pdf
 *
 * Exports the visible span of the current trace, every row, in the light
 * palette (figures for reviews), as wide as the timeline is on screen.
 */
gboolean
ws_window_export_timeline (WsWindow    *self,
                           const char  *path,
                           GError     **error)
{
  g_autoptr(WsTimelineRenderer) renderer = NULL;
  WsExportFormat format;
  double width;

  g_return_val_if_fail (WS_IS_WINDOW (self), FALSE);

  if (!_ws_window_is_ready (self))
    {
      g_set_error_literal (error, WS_ERROR, WS_ERROR_INVALID, _("No trace is shown"));
      return FALSE;
    }
  if (!ws_export_format_from_path (path, &format))
    {
      g_set_error (error, WS_ERROR, WS_ERROR_INVALID,
                   _("“%s”: choose a name ending in .png, .svg or .pdf"), path);
      return FALSE;
    }

  renderer = ws_timeline_renderer_new ();
  width = MAX (gtk_widget_get_width (GTK_WIDGET (self->timeline_view)), 1200);
  return ws_export_timeline (path, format, renderer, ws_document_get_lod (self->current),
                             ws_document_get_layout (self->current),
                             ws_document_get_viewport (self->current), width, error);
}

static void
export_response_cb (GtkNativeDialog *dialog,
                    int              response,
                    WsWindow        *self)
{
  if (response == GTK_RESPONSE_ACCEPT)
    {
      g_autoptr(GFile) file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (dialog));
      g_autofree char *path = g_file_get_path (file);
      g_autoptr(GError) error = NULL;
      WsExportFormat format;

      if (path != NULL && !ws_export_format_from_path (path, &format))
        {
          char *with_ext = g_strconcat (path, ".png", NULL);
          g_free (path);
          path = with_ext;
        }
      if (path == NULL || !ws_window_export_timeline (self, path, &error))
        {
          AdwMessageDialog *alert = ADW_MESSAGE_DIALOG (adw_message_dialog_new (GTK_WINDOW (self), _("Could Not Export the Timeline"),
                                                                                 error ? error->message : NULL));
          adw_message_dialog_add_response (alert, "close", _("_Close"));
          gtk_window_present (GTK_WINDOW (alert));
        }
      else
        {
          g_autofree char *name = g_path_get_basename (path);
          /* Translators: toast after an export */
          g_autofree char *text = g_strdup_printf (_("Timeline exported to %s"), name);
          ws_window_show_toast (self, text);
        }
    }
  gtk_native_dialog_destroy (dialog);
  g_object_unref (dialog);
}

static void
export_timeline_action (GtkWidget  *widget,
                        const char *action_name,
                        GVariant   *param)
{
  WsWindow *self = WS_WINDOW (widget);
  GtkFileChooserNative *chooser;
  g_autofree char *name = NULL;
  static const struct { const char *name; const char *pattern; } formats[] = {
    { N_("PNG Image"), "*.png" },
    { N_("SVG Drawing"), "*.svg" },
    { N_("PDF Document"), "*.pdf" },
  };

  if (!_ws_window_is_ready (self))
    return;

  chooser = gtk_file_chooser_native_new (_("Export Timeline"), GTK_WINDOW (self),
                                         GTK_FILE_CHOOSER_ACTION_SAVE, _("_Export"), _("_Cancel"));
  ws_chooser_set_start_folder (GTK_FILE_CHOOSER (chooser), GTK_WIDGET (self));
  for (guint i = 0; i < G_N_ELEMENTS (formats); i++)
    {
      GtkFileFilter *filter = gtk_file_filter_new ();
      gtk_file_filter_set_name (filter, _(formats[i].name));
      gtk_file_filter_add_pattern (filter, formats[i].pattern);
      gtk_file_chooser_add_filter (GTK_FILE_CHOOSER (chooser), filter);
      g_object_unref (filter);
    }
  name = g_strdup_printf ("%s-timeline.png", ws_document_get_title (self->current));
  gtk_file_chooser_set_current_name (GTK_FILE_CHOOSER (chooser), name);
  g_signal_connect (chooser, "response", G_CALLBACK (export_response_cb), self);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (chooser));
}

static gboolean
export_chrome_func (GtkWidget   *widget,
                    const char  *path,
                    GError     **error)
{
  WsWindow *self = WS_WINDOW (widget);

  if (!_ws_window_is_ready (self))
    {
      g_set_error_literal (error, WS_ERROR, WS_ERROR_INVALID, _("No trace is shown"));
      return FALSE;
    }
  return ws_chrome_trace_save (ws_document_get_trace (self->current), path, NULL, error);
}

/**
 * ws_window_export_chrome:
 *
 * Writes the shown trace as Chrome / Perfetto trace JSON to @path, as
 * "Export for Perfetto…" does once a file is chosen.
 */
gboolean
ws_window_export_chrome (WsWindow    *self,
                         const char  *path,
                         GError     **error)
{
  return export_chrome_func (GTK_WIDGET (self), path, error);
}

static void
export_chrome_toast (GtkWidget  *widget,
                     const char *message)
{
  ws_window_show_toast (WS_WINDOW (widget), message);
}

/* The exact perf record line that records waits, selectable. */
static void
record_waits_help_action (GtkWidget  *widget,
                          const char *action_name,
                          GVariant   *param)
{
  AdwMessageDialog *dialog;
  GtkWidget *label = gtk_label_new (WS_PERF_RECORD_WAITS_COMMAND);

  dialog = ADW_MESSAGE_DIALOG (adw_message_dialog_new (GTK_WINDOW (widget), _("Recording Waits"),
                                                       _("Waits come from the scheduler's events with call stacks. "
                                                         "Record them as root, then open perf.data:")));
  gtk_label_set_selectable (GTK_LABEL (label), TRUE);
  gtk_label_set_wrap (GTK_LABEL (label), TRUE);
  gtk_label_set_wrap_mode (GTK_LABEL (label), PANGO_WRAP_WORD);
  gtk_widget_add_css_class (label, "monospace");
  adw_message_dialog_set_extra_child (dialog, label);
  adw_message_dialog_add_response (dialog, "close", _("_Close"));
  gtk_window_present (GTK_WINDOW (dialog));
}

/* The whole trace as Chrome trace events, for ui.perfetto.dev. */
static void
export_chrome_action (GtkWidget  *widget,
                      const char *action_name,
                      GVariant   *param)
{
  WsWindow *self = WS_WINDOW (widget);
  g_autofree char *name = NULL;

  if (!_ws_window_is_ready (self))
    return;
  name = g_strdup_printf ("%s.chrome.json", ws_document_get_title (self->current));
  ws_export_dialog_show (widget, _("Export for Perfetto"), name, export_chrome_func, export_chrome_toast);
}

static void
forward_action (GtkWidget  *widget,
                const char *action_name,
                GVariant   *param)
{
  WsWindow *self = WS_WINDOW (widget);
  static const struct { const char *from; const char *to; } map[] = {
    { "win.zoom-in", "timeline.zoom-in" },
    { "win.zoom-out", "timeline.zoom-out" },
    { "win.zoom-fit", "timeline.zoom-fit" },
    { "win.zoom-back", "timeline.back" },
    { "win.zoom-selection", "timeline.zoom-selection" },
    { "win.clear-selection", "timeline.clear-selection" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (map); i++)
    if (g_str_equal (action_name, map[i].from))
      gtk_widget_activate_action (GTK_WIDGET (self->timeline_view), map[i].to, NULL);
  _ws_window_update_actions (self);
}

static void
toggle_sidebar_action (GtkWidget  *widget,
                       const char *action_name,
                       GVariant   *param)
{
  WsWindow *self = WS_WINDOW (widget);
  gtk_toggle_button_set_active (self->sidebar_button, !gtk_toggle_button_get_active (self->sidebar_button));
}

static void
analysis_action (GtkWidget  *widget,
                 const char *action_name,
                 GVariant   *param)
{
  WsWindow *self = WS_WINDOW (widget);
  WsAnalysisKind kind = g_str_equal (action_name, "win.show-wait-graph") ? WS_ANALYSIS_WAIT_GRAPH
                        : g_str_equal (action_name, "win.show-critical-path") ? WS_ANALYSIS_CRITICAL_PATH
                        : WS_ANALYSIS_READY_TREE;
  guint analysis_requested = g_signal_lookup ("analysis-requested", WS_TYPE_WINDOW);
  guint thread;
  WsTime t0, t1;

  if (!_ws_window_is_ready (self) ||
      !ws_timeline_viewport_get_selection (ws_document_get_viewport (self->current), &thread, &t0, &t1))
    return;

  if (!g_signal_has_handler_pending (self, analysis_requested, 0, TRUE))
    {
      ws_window_show_toast (self, kind == WS_ANALYSIS_WAIT_GRAPH ? _("This build has no wait graph view")
                                                  : _("This build has no ready tree view"));
      return;
    }
  g_signal_emit (self, analysis_requested, 0, kind, ws_document_get_trace (self->current),
                 thread, (gint64) t0, (gint64) t1);
}

/* The graph page's inspector (ws-graph-page.c) on the whole trace. */
static void
inspect_trace_action (GtkWidget  *widget,
                      const char *action_name,
                      GVariant   *param)
{
  WsWindow *self = WS_WINDOW (widget);

  if (!_ws_window_is_ready (self))
    return;
  ws_graph_page_inspect_trace (self->graph_page, ws_document_get_trace (self->current));
  ws_window_show_details_page (self, "graph");
}

/* Alt+1…8: a page of the lower pane, with the keyboard focus in it. */
static void
details_page_action (GtkWidget  *widget,
                     const char *action_name,
                     GVariant   *param)
{
  WsWindow *self = WS_WINDOW (widget);
  GtkWidget *page = gtk_stack_get_child_by_name (self->details_stack, g_variant_get_string (param, NULL));

  if (page == NULL || !gtk_stack_page_get_visible (gtk_stack_get_page (self->details_stack, page)) ||
      !_ws_window_is_ready (self))
    {
      gtk_widget_error_bell (widget);
      return;
    }
  gtk_stack_set_visible_child (self->details_stack, page);
  gtk_widget_child_focus (page, GTK_DIR_TAB_FORWARD);
}

void
_ws_window_class_actions_init (GtkWidgetClass *widget_class)
{
  gtk_widget_class_install_action (widget_class, "win.close-trace", NULL, close_trace_action);
  gtk_widget_class_install_action (widget_class, "win.cancel-load", NULL, cancel_load_action);
  gtk_widget_class_install_action (widget_class, "win.export-timeline", NULL, export_timeline_action);
  gtk_widget_class_install_action (widget_class, "win.export-chrome", NULL, export_chrome_action);
  gtk_widget_class_install_action (widget_class, "win.record-waits-help", NULL, record_waits_help_action);
  gtk_widget_class_install_action (widget_class, "win.toggle-sidebar", NULL, toggle_sidebar_action);
  gtk_widget_class_install_action (widget_class, "win.show-wait-graph", NULL, analysis_action);
  gtk_widget_class_install_action (widget_class, "win.show-ready-tree", NULL, analysis_action);
  gtk_widget_class_install_action (widget_class, "win.show-critical-path", NULL, analysis_action);
  gtk_widget_class_install_action (widget_class, "win.details-page", "s", details_page_action);
  gtk_widget_class_install_action (widget_class, "win.inspect-trace", NULL, inspect_trace_action);
  gtk_widget_class_install_action (widget_class, "win.zoom-in", NULL, forward_action);
  gtk_widget_class_install_action (widget_class, "win.zoom-out", NULL, forward_action);
  gtk_widget_class_install_action (widget_class, "win.zoom-fit", NULL, forward_action);
  gtk_widget_class_install_action (widget_class, "win.zoom-back", NULL, forward_action);
  gtk_widget_class_install_action (widget_class, "win.zoom-selection", NULL, forward_action);
  gtk_widget_class_install_action (widget_class, "win.clear-selection", NULL, forward_action);
}
