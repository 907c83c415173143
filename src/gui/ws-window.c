/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The main window.  Each open trace is a WsDocument in the sidebar; the
 * window shows the selected one and forwards the header bar's zoom buttons
 * and the search bar to the timeline.
 */
#include "config.h"

#include <glib/gi18n.h>

#include "ws-error.h"
#include "ws-chrome-trace.h"
#include "ws-export-dialog.h"
#include "ws-export.h"
#include "ws-findings-page.h"
#include "ws-graph-page.h"
#include "ws-contrast-page.h"
#include "ws-pin-capture.h"
#include "ws-window-findings.h"
#include "ws-window-record.h"
#include "ws-importer.h"
#include "ws-mining-page.h"
#include "ws-overview-page.h"
#include "ws-perf-importer.h"
#include "ws-time-format.h"
#include "ws-timeline-legend.h"
#include "ws-window.h"
#include "ws-window-anomaly.h"

#define MAX_RECENT 10

struct _WsWindow
{
  AdwApplicationWindow  parent_instance;

  /* Template widgets */
  AdwToastOverlay      *toast_overlay;
  AdwWindowTitle       *window_title;
  GtkToggleButton      *sidebar_button;
  GtkToggleButton      *search_button;
  GtkWidget            *zoom_box;
  GtkSearchBar         *search_bar;
  GtkSearchEntry       *search_entry;
  GtkLabel             *search_status;
  GtkWidget            *sidebar;
  GtkListBox           *trace_list;
  GtkStack             *main_stack;
  AdwStatusPage        *loading_page;
  AdwStatusPage        *error_page;
  GtkProgressBar       *load_progress;
  GtkScrolledWindow    *timeline_scroller;
  WsTimelineView       *timeline_view;
  GtkRevealer          *selection_revealer;
  GtkLabel             *selection_label;
  WsTimelineLegend     *legend;
  GtkStack             *details_stack;
  WsDetailsPane        *details_pane;
  WsThreadTable        *thread_table;
  WsMiningPage         *mining_page;
  WsOverviewPage       *overview_page;
  WsGraphPage          *graph_page;
  WsFindingsPage       *findings_page;
  WsContrastPage       *contrast_page;
  GtkPaned             *content_paned;
  GMenu                *recent_section;

  /* Owned references */
  WsSession            *session;
  GListStore           *documents;      /* the session's, which the window edits */
  WsDocument           *current;
  GSignalGroup         *document_signals;
  GSignalGroup         *viewport_signals;
  GSettings            *settings;
  GCancellable         *search_cancellable;
  WsStackSearch        *search;
  guint                 search_generation;
};

G_DEFINE_FINAL_TYPE (WsWindow, ws_window, ADW_TYPE_APPLICATION_WINDOW)

enum {
  ANALYSIS_REQUESTED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

static void show_document (WsWindow *self, WsDocument *document);

static void
toast (WsWindow   *self,
       const char *text)
{
  adw_toast_overlay_add_toast (self->toast_overlay, adw_toast_new (text));
}

/* ------------------------------------------------------------------ */
/* Action state                                                         */

static gboolean
is_ready (WsWindow *self)
{
  return self->current != NULL && ws_document_get_state (self->current) == WS_DOCUMENT_READY;
}

static void
update_actions (WsWindow *self)
{
  gboolean ready = is_ready (self);
  gboolean selection = ready && ws_timeline_viewport_get_selection (ws_document_get_viewport (self->current), NULL, NULL, NULL);
  static const char *const need_ready[] = {
    "export-timeline", "export-chrome", "zoom-in", "zoom-out", "zoom-fit", "search", "inspect-trace",
  };

  for (guint i = 0; i < G_N_ELEMENTS (need_ready); i++)
    gtk_widget_action_set_enabled (GTK_WIDGET (self), need_ready[i], ready);
  /* Timeline controls only where there is a timeline. */
  gtk_widget_set_visible (self->zoom_box, ready);
  gtk_widget_set_visible (GTK_WIDGET (self->search_button), ready);
  if (!ready)
    gtk_search_bar_set_search_mode (self->search_bar, FALSE);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "zoom-back",
                                 ready && ws_timeline_viewport_can_go_back (ws_document_get_viewport (self->current)));
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "search-next", ready && self->search != NULL);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "search-previous", ready && self->search != NULL);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "show-wait-graph", selection);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "show-ready-tree", selection);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "show-critical-path", selection);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "zoom-selection", selection);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "clear-selection", ready);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "close-trace", self->current != NULL);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "cancel-load",
                                 self->current != NULL && ws_document_get_state (self->current) == WS_DOCUMENT_LOADING);
}

/* ------------------------------------------------------------------ */
/* Selection and details                                                */

static void
update_selection (WsWindow *self)
{
  WsTimelineViewport *viewport;
  guint thread;
  WsTime t0, t1;

  if (!is_ready (self))
    {
      gtk_revealer_set_reveal_child (self->selection_revealer, FALSE);
      update_actions (self);
      return;
    }

  viewport = ws_document_get_viewport (self->current);
  if (ws_timeline_viewport_get_selection (viewport, &thread, &t0, &t1))
    {
      WsTrace *trace = ws_document_get_trace (self->current);
      const WsThread *t = ws_trace_get_thread (trace, thread);
      g_autofree char *len = ws_format_duration (t1 - t0);
      g_autofree char *from = ws_format_duration (t0 - ws_trace_get_start_time (trace));
      g_autofree char *text = NULL;

      /* Translators: selection bar: thread name, tid, window length, start */
      text = g_strdup_printf (_("%s (%d): %s from +%s"), t->name ? t->name : "?", t->tid, len, from);
      gtk_label_set_text (self->selection_label, text);
      gtk_revealer_set_reveal_child (self->selection_revealer, TRUE);
      if (ws_timeline_viewport_get_selected_event (viewport) == WS_NONE)
        ws_details_pane_show_window (self->details_pane, thread, t0, t1);
    }
  else
    gtk_revealer_set_reveal_child (self->selection_revealer, FALSE);
  update_actions (self);
}

static void
update_details (WsWindow *self)
{
  WsTimelineViewport *viewport;
  guint selected, hovered, thread;
  WsTime t0, t1;

  if (!is_ready (self))
    return;
  viewport = ws_document_get_viewport (self->current);
  selected = ws_timeline_viewport_get_selected_event (viewport);
  hovered = ws_timeline_viewport_get_hovered_event (viewport);

  /* A clicked event stays until another is clicked; hovering previews. */
  if (hovered != WS_NONE && hovered != selected)
    ws_details_pane_show_event (self->details_pane, hovered, FALSE);
  else if (selected != WS_NONE)
    ws_details_pane_show_event (self->details_pane, selected, TRUE);
  else if (ws_timeline_viewport_get_selection (viewport, &thread, &t0, &t1))
    ws_details_pane_show_window (self->details_pane, thread, t0, t1);
  else
    ws_details_pane_clear (self->details_pane);
}

/* ------------------------------------------------------------------ */
/* Documents                                                            */

static void
update_title (WsWindow *self)
{
  if (self->current == NULL)
    {
      adw_window_title_set_title (self->window_title, _("Waitscope"));
      adw_window_title_set_subtitle (self->window_title, NULL);
      gtk_window_set_title (GTK_WINDOW (self), _("Waitscope"));
      return;
    }
  {
    g_autofree char *title = g_strdup_printf ("%s — %s", ws_document_get_title (self->current), _("Waitscope"));
    adw_window_title_set_title (self->window_title, ws_document_get_title (self->current));
    adw_window_title_set_subtitle (self->window_title, ws_document_get_subtitle (self->current));
    gtk_window_set_title (GTK_WINDOW (self), title);
  }
}

static void
update_loading_page (WsWindow *self)
{
  g_autofree char *title = NULL;

  if (self->current == NULL || ws_document_get_state (self->current) != WS_DOCUMENT_LOADING)
    return;
  /* Translators: loading page title, with the file name */
  title = g_strdup_printf (_("Loading %s…"), ws_document_get_title (self->current));
  adw_status_page_set_title (self->loading_page, title);
  adw_status_page_set_description (self->loading_page, ws_document_get_message (self->current));
  gtk_progress_bar_set_fraction (self->load_progress, ws_document_get_progress (self->current));
}

static void
document_state_changed (WsWindow *self)
{
  show_document (self, self->current);
}

static void
show_document (WsWindow   *self,
               WsDocument *document)
{
  if (self->current != document)
    {
      g_set_object (&self->current, document);
      ws_session_set_current_document (self->session, document);
      g_signal_group_set_target (self->document_signals, document);
      g_clear_object (&self->search);
      ws_timeline_view_set_search (self->timeline_view, NULL);
    }

  g_signal_group_set_target (self->viewport_signals,
                             document && ws_document_get_state (document) == WS_DOCUMENT_READY
                             ? ws_document_get_viewport (document) : NULL);

  if (document == NULL)
    {
      gtk_stack_set_visible_child_name (self->main_stack, "welcome");
      ws_timeline_view_set_data (self->timeline_view, NULL, NULL, NULL);
      ws_thread_table_set_lod (self->thread_table, NULL);
      ws_details_pane_set_trace (self->details_pane, NULL);
    }
  else switch (ws_document_get_state (document))
    {
    case WS_DOCUMENT_LOADING:
      update_loading_page (self);
      gtk_stack_set_visible_child_name (self->main_stack, "loading");
      break;

    case WS_DOCUMENT_FAILED:
      {
        const GError *error = ws_document_get_error (document);
        g_autofree char *title = g_strdup_printf (_("Could Not Open %s"), ws_document_get_title (document));

        adw_status_page_set_title (self->error_page, title);
        adw_status_page_set_description (self->error_page, error ? error->message : NULL);
        gtk_stack_set_visible_child_name (self->main_stack, "error");
      }
      break;

    case WS_DOCUMENT_READY:
    default:
      if (self->settings != NULL)
        {
          int height = g_settings_get_int (self->settings, "timeline-row-height");
          ws_timeline_layout_set_row_height (ws_document_get_layout (document), height, height + 2);
        }
      if (ws_timeline_view_get_lod (self->timeline_view) != ws_document_get_lod (document))
        {
          ws_timeline_view_set_data (self->timeline_view, ws_document_get_lod (document),
                                     ws_document_get_layout (document), ws_document_get_viewport (document));
          ws_thread_table_set_lod (self->thread_table, ws_document_get_lod (document));
          ws_details_pane_set_trace (self->details_pane, ws_document_get_trace (document));
        }
      gtk_stack_set_visible_child_name (self->main_stack, "trace");
      break;
    }

  update_title (self);
  update_selection (self);
  update_details (self);
  update_actions (self);
}

/* Recent traces and sessions alike (app.open-recent opens either). */
void
ws_window_add_recent (WsWindow *self,
                      GFile    *file)
{
  g_autofree char *uri = g_file_get_uri (file);
  g_auto(GStrv) old = NULL;
  g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();
  g_auto(GStrv) recent = NULL;
  guint n = 1;

  gtk_recent_manager_add_item (gtk_recent_manager_get_default (), uri);
  if (self->settings == NULL)
    return;

  old = g_settings_get_strv (self->settings, "recent-files");
  g_strv_builder_add (builder, uri);
  for (guint i = 0; old[i] != NULL && n < MAX_RECENT; i++)
    if (g_strcmp0 (old[i], uri) != 0)
      {
        g_strv_builder_add (builder, old[i]);
        n++;
      }
  recent = g_strv_builder_end (builder);
  g_settings_set_strv (self->settings, "recent-files", (const char * const *) recent);
}

static void
update_recent_menu (WsWindow *self)
{
  g_auto(GStrv) recent = NULL;

  g_menu_remove_all (self->recent_section);
  if (self->settings == NULL)
    return;

  recent = g_settings_get_strv (self->settings, "recent-files");
  for (guint i = 0; recent[i] != NULL; i++)
    {
      g_autoptr(GFile) file = g_file_new_for_uri (recent[i]);
      g_autofree char *name = g_file_get_basename (file);
      g_autoptr(GMenuItem) item = g_menu_item_new (name, NULL);

      g_menu_item_set_action_and_target (item, "app.open-recent", "s", recent[i]);
      g_menu_append_item (self->recent_section, item);
    }
  if (recent[0] == NULL)
    {
      g_autoptr(GMenuItem) item = g_menu_item_new (_("No Recent Traces"), "app.no-recent");
      g_menu_append_item (self->recent_section, item);
    }
}

static void close_document (WsWindow *self, WsDocument *document);

static void
load_cb (GObject      *source,
         GAsyncResult *result,
         gpointer      user_data)
{
  WsDocument *document = WS_DOCUMENT (source);
  g_autoptr(WsWindow) self = user_data;
  g_autoptr(GError) error = NULL;

  if (ws_document_load_finish (document, result, &error))
    {
      const GError *history_error = ws_document_get_history_error (document);

      ws_window_add_recent (self, ws_document_get_file (document));
      /* The first answer (ws-overview-page.c) is what a newly opened trace
       * shows under the timeline, unless a page was chosen (a reopened
       * session restores its own). */
      if (g_strcmp0 (gtk_stack_get_visible_child_name (self->details_stack), "details") == 0)
        ws_window_show_details_page (self, "overview");
      if (history_error != NULL)
        {
          /* Translators: toast when a trace opened fine but the history store failed */
          g_autofree char *text = g_strdup_printf (_("%s was not recorded in the history: %s"),
                                                   ws_document_get_title (document), history_error->message);
          toast (self, text);
        }
      if (ws_trace_count_kind (ws_document_get_trace (document), WS_EVENT_WAIT) == 0)
        {
          /* A profile of samples alone: say what would show waits. */
          g_autofree char *text = g_strdup_printf (_("%s has CPU samples but no waits"),
                                                   ws_document_get_title (document));
          AdwToast *t = adw_toast_new (text);

          adw_toast_set_button_label (t, _("How to Record Waits"));
          adw_toast_set_action_name (t, "win.record-waits-help");
          adw_toast_set_timeout (t, 10);
          adw_toast_overlay_add_toast (self->toast_overlay, t);
        }
      return;
    }

  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED) ||
      g_error_matches (error, WS_ERROR, WS_ERROR_CANCELLED))
    {
      /* Translators: toast after the user cancelled loading a file */
      g_autofree char *text = g_strdup_printf (_("Stopped loading %s"), ws_document_get_title (document));
      toast (self, text);
      /* A cancelled load leaves nothing worth a place in the sidebar. */
      close_document (self, document);
      return;
    }

  /* The message names the file and line ("FILE:LINE: …"). */
  {
    g_autofree char *heading = g_strdup_printf (_("Could Not Open %s"), ws_document_get_title (document));
    AdwMessageDialog *dialog = ADW_MESSAGE_DIALOG (adw_message_dialog_new (GTK_WINDOW (self), heading, error->message));

    adw_message_dialog_add_response (dialog, "close", _("_Close"));
    adw_message_dialog_set_default_response (dialog, "close");
    gtk_window_present (GTK_WINDOW (dialog));
  }
}

/**
 * ws_window_open_file:
 *
 * Starts loading @file in the background and shows it.  A file already
 * open in this window is shown again, not loaded twice.
 *
 * Returns: (transfer none): its document
 */
WsDocument *
ws_window_open_file (WsWindow *self,
                     GFile    *file)
{
  g_autoptr(WsDocument) document = NULL;
  guint n;

  g_return_val_if_fail (WS_IS_WINDOW (self), NULL);
  g_return_val_if_fail (G_IS_FILE (file), NULL);

  /* Command line, drag and drop, recent list: a session opens as one. */
  if (ws_window_findings_open_session (self, self->findings_page, file))
    return NULL;
  n = g_list_model_get_n_items (G_LIST_MODEL (self->documents));
  for (guint i = 0; i < n; i++)
    {
      g_autoptr(WsDocument) open = g_list_model_get_item (G_LIST_MODEL (self->documents), i);
      if (g_file_equal (ws_document_get_file (open), file) &&
          ws_document_get_state (open) != WS_DOCUMENT_FAILED)
        {
          gtk_list_box_select_row (self->trace_list, gtk_list_box_get_row_at_index (self->trace_list, i));
          return open;
        }
    }

  document = ws_document_new (file);
  ws_document_set_record_history (document, ws_session_get_record_history (self->session));
  g_list_store_append (self->documents, document);
  gtk_list_box_select_row (self->trace_list, gtk_list_box_get_row_at_index (self->trace_list, n));
  ws_document_load_async (document, NULL, load_cb, g_object_ref (self));
  return document;
}

static void
close_document (WsWindow   *self,
                WsDocument *document)
{
  guint position;

  if (!g_list_store_find (self->documents, document, &position))
    return;
  ws_document_cancel (document);
  g_list_store_remove (self->documents, position);
  if (document == self->current)
    {
      guint n = g_list_model_get_n_items (G_LIST_MODEL (self->documents));
      GtkListBoxRow *row = n ? gtk_list_box_get_row_at_index (self->trace_list, MIN (position, n - 1)) : NULL;

      if (row != NULL)
        gtk_list_box_select_row (self->trace_list, row);
      else
        show_document (self, NULL);
    }
}

static void
close_clicked_cb (GtkButton *button,
                  WsWindow  *self)
{
  close_document (self, g_object_get_data (G_OBJECT (button), "document"));
}

static GtkWidget *
create_row (gpointer item,
            gpointer user_data)
{
  WsWindow *self = user_data;
  WsDocument *document = item;
  GtkWidget *row = gtk_list_box_row_new ();
  GtkWidget *hbox = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  GtkWidget *vbox = gtk_box_new (GTK_ORIENTATION_VERTICAL, 2);
  GtkWidget *title = gtk_label_new (NULL);
  GtkWidget *subtitle = gtk_label_new (NULL);
  GtkWidget *progress = gtk_progress_bar_new ();
  GtkWidget *close = gtk_button_new_from_icon_name ("window-close-symbolic");

  gtk_label_set_xalign (GTK_LABEL (title), 0);
  gtk_label_set_ellipsize (GTK_LABEL (title), PANGO_ELLIPSIZE_MIDDLE);
  gtk_label_set_xalign (GTK_LABEL (subtitle), 0);
  gtk_label_set_ellipsize (GTK_LABEL (subtitle), PANGO_ELLIPSIZE_END);
  gtk_widget_add_css_class (subtitle, "caption");
  gtk_widget_add_css_class (subtitle, "dim-label");
  g_object_bind_property (document, "title", title, "label", G_BINDING_SYNC_CREATE);
  g_object_bind_property (document, "subtitle", subtitle, "label", G_BINDING_SYNC_CREATE);
  g_object_bind_property (document, "progress", progress, "fraction", G_BINDING_SYNC_CREATE);
  g_object_bind_property (document, "loading", progress, "visible", G_BINDING_SYNC_CREATE);

  gtk_widget_set_valign (close, GTK_ALIGN_CENTER);
  gtk_widget_add_css_class (close, "flat");
  gtk_widget_add_css_class (close, "circular");
  /* Translators: close/cancel button of a trace in the sidebar */
  gtk_widget_set_tooltip_text (close, _("Close or Stop Loading"));
  gtk_accessible_update_property (GTK_ACCESSIBLE (close), GTK_ACCESSIBLE_PROPERTY_LABEL, _("Close"), -1);
  g_object_set_data (G_OBJECT (close), "document", document);
  g_signal_connect (close, "clicked", G_CALLBACK (close_clicked_cb), self);

  gtk_widget_set_hexpand (vbox, TRUE);
  gtk_box_append (GTK_BOX (vbox), title);
  gtk_box_append (GTK_BOX (vbox), subtitle);
  gtk_box_append (GTK_BOX (vbox), progress);
  gtk_box_append (GTK_BOX (hbox), vbox);
  gtk_box_append (GTK_BOX (hbox), close);
  gtk_widget_set_margin_top (hbox, 4);
  gtk_widget_set_margin_bottom (hbox, 4);
  gtk_list_box_row_set_child (GTK_LIST_BOX_ROW (row), hbox);
  g_object_set_data (G_OBJECT (row), "document", document);
  return row;
}

static void
row_selected_cb (WsWindow      *self,
                 GtkListBoxRow *row,
                 GtkListBox    *list)
{
  if (row != NULL)
    show_document (self, g_object_get_data (G_OBJECT (row), "document"));
}

/* ------------------------------------------------------------------ */
/* Search                                                               */

typedef struct {
  WsTrace *trace;
  char    *pattern;
  guint    generation;
} SearchJob;

static void
search_job_free (SearchJob *job)
{
  g_clear_object (&job->trace);
  g_free (job->pattern);
  g_free (job);
}

static void
search_thread (GTask        *task,
               gpointer      source_object,
               gpointer      task_data,
               GCancellable *cancellable)
{
  SearchJob *job = task_data;
  GError *error = NULL;
  WsStackSearch *search = ws_stack_search_new (job->trace, job->pattern, cancellable, &error);

  if (search == NULL)
    g_task_return_error (task, error);
  else
    g_task_return_pointer (task, search, g_object_unref);
}

static void
search_done (GObject      *source,
             GAsyncResult *result,
             gpointer      user_data)
{
  WsWindow *self = WS_WINDOW (source);
  SearchJob *job = g_task_get_task_data (G_TASK (result));
  g_autoptr(GError) error = NULL;
  g_autoptr(WsStackSearch) search = g_task_propagate_pointer (G_TASK (result), &error);

  /* Drop the results of a search the user has typed past. */
  if (job->generation != self->search_generation)
    return;

  gtk_widget_remove_css_class (GTK_WIDGET (self->search_entry), "error");
  if (search == NULL)
    {
      if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        return;
      gtk_widget_add_css_class (GTK_WIDGET (self->search_entry), "error");
      gtk_label_set_text (self->search_status, _("Invalid expression"));
      gtk_widget_set_tooltip_text (GTK_WIDGET (self->search_status), error->message);
      return;
    }

  g_set_object (&self->search, search);
  ws_timeline_view_set_search (self->timeline_view, search);
  {
    guint n = ws_stack_search_get_n_matches (search);
    g_autofree char *text = NULL;

    if (n == 0)
      text = g_strdup (_("No matches"));
    else
      /* Translators: search status: matching events, matching frames */
      text = g_strdup_printf (ngettext ("%u event, %u frames", "%u events, %u frames", n),
                              n, ws_stack_search_get_n_frames (search));
    gtk_label_set_text (self->search_status, text);
    gtk_widget_set_tooltip_text (GTK_WIDGET (self->search_status), NULL);
    if (n == 0)
      gtk_widget_add_css_class (GTK_WIDGET (self->search_entry), "error");
  }
  update_actions (self);
}

static void
start_search (WsWindow   *self,
              const char *text)
{
  g_autoptr(GTask) task = NULL;
  SearchJob *job;

  g_cancellable_cancel (self->search_cancellable);
  g_clear_object (&self->search_cancellable);
  self->search_generation++;
  g_clear_object (&self->search);
  ws_timeline_view_set_search (self->timeline_view, NULL);
  if (self->current != NULL)   /* a finding's bridging threads go with its search */
    ws_timeline_viewport_set_highlighted_threads (ws_document_get_viewport (self->current), NULL, 0);
  gtk_widget_remove_css_class (GTK_WIDGET (self->search_entry), "error");
  update_actions (self);

  if (!is_ready (self) || text == NULL || *text == '\0')
    {
      gtk_label_set_text (self->search_status, "");
      return;
    }

  job = g_new0 (SearchJob, 1);
  job->trace = g_object_ref (ws_document_get_trace (self->current));
  job->pattern = g_strdup (text);
  job->generation = self->search_generation;
  self->search_cancellable = g_cancellable_new ();
  gtk_label_set_text (self->search_status, _("Searching…"));

  task = g_task_new (self, self->search_cancellable, search_done, NULL);
  g_task_set_task_data (task, job, (GDestroyNotify) search_job_free);
  g_task_run_in_thread (task, search_thread);
}

static void
search_changed_cb (WsWindow       *self,
                   GtkSearchEntry *entry)
{
  start_search (self, gtk_editable_get_text (GTK_EDITABLE (entry)));
}

static void
search_step (WsWindow *self,
             gboolean  forward)
{
  WsTimelineViewport *viewport;
  guint event;

  if (self->search == NULL || !is_ready (self))
    return;
  viewport = ws_document_get_viewport (self->current);
  event = ws_stack_search_next (self->search, ws_timeline_viewport_get_selected_event (viewport), forward);
  if (event == WS_NONE)
    return;

  ws_timeline_viewport_set_selected_event (viewport, event);
  ws_timeline_view_reveal_event (self->timeline_view, event);
  ws_window_show_details_page (self, "details");
  {
    /* Translators: search status: "match 3 of 120" */
    g_autofree char *text = g_strdup_printf (_("Match %u of %u"),
                                             ws_stack_search_get_rank (self->search, event) + 1,
                                             ws_stack_search_get_n_matches (self->search));
    gtk_label_set_text (self->search_status, text);
  }
}

static gboolean
search_key_cb (WsWindow              *self,
               guint                  keyval,
               guint                  keycode,
               GdkModifierType        state,
               GtkEventControllerKey *controller)
{
  /* Tab cycles through the matches, as in the ready-tree patent. */
  if (keyval == GDK_KEY_Tab || keyval == GDK_KEY_ISO_Left_Tab)
    {
      search_step (self, keyval == GDK_KEY_Tab && !(state & GDK_SHIFT_MASK));
      return TRUE;
    }
  if (keyval == GDK_KEY_Return && (state & GDK_SHIFT_MASK))
    {
      search_step (self, FALSE);
      return TRUE;
    }
  return FALSE;
}

static void
search_activate_cb (WsWindow       *self,
                    GtkSearchEntry *entry)
{
  search_step (self, TRUE);
}

/* ------------------------------------------------------------------ */
/* Actions                                                              */

static void
open_response_cb (GtkNativeDialog *dialog,
                  int              response,
                  WsWindow        *self)
{
  if (response == GTK_RESPONSE_ACCEPT)
    {
      g_autoptr(GListModel) files = gtk_file_chooser_get_files (GTK_FILE_CHOOSER (dialog));
      for (guint i = 0; i < g_list_model_get_n_items (files); i++)
        {
          g_autoptr(GFile) file = g_list_model_get_item (files, i);
          ws_window_open_file (self, file);
        }
    }
  gtk_native_dialog_destroy (dialog);
  g_object_unref (dialog);
}

/* @importer's file-name patterns, or every importer's when %NULL. */
static void
add_importer_patterns (GtkFileFilter    *filter,
                       const WsImporter *importer)
{
  guint n;
  const WsImporter * const *importers = ws_importers_get (&n);

  for (guint i = 0; i < n; i++)
    if (importer == NULL || importers[i] == importer)
      for (guint k = 0; importers[i]->patterns[k] != NULL; k++)
        gtk_file_filter_add_pattern (filter, importers[i]->patterns[k]);
}

static void
open_action (GtkWidget  *widget,
             const char *action_name,
             GVariant   *param)
{
  WsWindow *self = WS_WINDOW (widget);
  GtkFileChooserNative *chooser;
  GtkFileFilter *filter;
  const WsImporter * const *importers;
  guint n_importers;

  chooser = gtk_file_chooser_native_new (_("Open Traces"), GTK_WINDOW (self),
                                         GTK_FILE_CHOOSER_ACTION_OPEN, _("_Open"), _("_Cancel"));
  gtk_file_chooser_set_select_multiple (GTK_FILE_CHOOSER (chooser), TRUE);

  /* One filter for every format the importer registry reads, then one each. */
  filter = gtk_file_filter_new ();
  gtk_file_filter_set_name (filter, _("All Traces"));
  add_importer_patterns (filter, NULL);
  gtk_file_chooser_add_filter (GTK_FILE_CHOOSER (chooser), filter);
  g_object_unref (filter);
  importers = ws_importers_get (&n_importers);
  for (guint i = 0; i < n_importers; i++)
    {
      filter = gtk_file_filter_new ();
      gtk_file_filter_set_name (filter, _(importers[i]->name));
      add_importer_patterns (filter, importers[i]);
      gtk_file_chooser_add_filter (GTK_FILE_CHOOSER (chooser), filter);
      g_object_unref (filter);
    }
  filter = gtk_file_filter_new ();
  gtk_file_filter_set_name (filter, _("All Files"));
  gtk_file_filter_add_pattern (filter, "*");
  gtk_file_chooser_add_filter (GTK_FILE_CHOOSER (chooser), filter);
  g_object_unref (filter);

  g_signal_connect (chooser, "response", G_CALLBACK (open_response_cb), self);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (chooser));
}

static void
close_trace_action (GtkWidget  *widget,
                    const char *action_name,
                    GVariant   *param)
{
  WsWindow *self = WS_WINDOW (widget);

  if (self->current != NULL)
    close_document (self, self->current);
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

  if (!is_ready (self))
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
          toast (self, text);
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

  if (!is_ready (self))
    return;

  chooser = gtk_file_chooser_native_new (_("Export Timeline"), GTK_WINDOW (self),
                                         GTK_FILE_CHOOSER_ACTION_SAVE, _("_Export"), _("_Cancel"));
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

  if (!is_ready (self))
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
  toast (WS_WINDOW (widget), message);
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

  if (!is_ready (self))
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
  update_actions (self);
}

static void
search_step_action (GtkWidget  *widget,
                    const char *action_name,
                    GVariant   *param)
{
  search_step (WS_WINDOW (widget), g_str_equal (action_name, "win.search-next"));
}

static void
toggle_search_action (GtkWidget  *widget,
                      const char *action_name,
                      GVariant   *param)
{
  WsWindow *self = WS_WINDOW (widget);
  gboolean on = !gtk_search_bar_get_search_mode (self->search_bar);

  gtk_search_bar_set_search_mode (self->search_bar, on);
  if (on)
    gtk_widget_grab_focus (GTK_WIDGET (self->search_entry));
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
  guint thread;
  WsTime t0, t1;

  if (!is_ready (self) ||
      !ws_timeline_viewport_get_selection (ws_document_get_viewport (self->current), &thread, &t0, &t1))
    return;

  if (!g_signal_has_handler_pending (self, signals[ANALYSIS_REQUESTED], 0, TRUE))
    {
      toast (self, kind == WS_ANALYSIS_WAIT_GRAPH ? _("This build has no wait graph view")
                                                  : _("This build has no ready tree view"));
      return;
    }
  g_signal_emit (self, signals[ANALYSIS_REQUESTED], 0, kind, ws_document_get_trace (self->current),
                 thread, (gint64) t0, (gint64) t1);
}

/* ------------------------------------------------------------------ */
/* Drag and drop                                                        */

static gboolean
drop_cb (GtkDropTarget *target,
         const GValue  *value,
         double         x,
         double         y,
         WsWindow      *self)
{
  GSList *files;

  if (!G_VALUE_HOLDS (value, GDK_TYPE_FILE_LIST))
    return FALSE;
  files = g_value_get_boxed (value);
  for (GSList *l = files; l != NULL; l = l->next)
    ws_window_open_file (self, l->data);
  return files != NULL;
}

/* ------------------------------------------------------------------ */
/* Other signals                                                        */

static void
thread_activated_cb (WsWindow      *self,
                     guint          thread,
                     WsThreadTable *table)
{
  ws_timeline_view_reveal_thread (self->timeline_view, thread);
  gtk_widget_grab_focus (GTK_WIDGET (self->timeline_view));
}

/* The Overview's cluster row: the Mining page. */
static void
overview_show_mining_cb (WsWindow *self)
{
  ws_window_show_details_page (self, "mining");
}

/* The graph page (ws-graph-page.c) in the lower pane, given most of the
 * height so that graph and timeline show together. */
static void
show_analysis_cb (WsWindow *self,
                  int       kind,
                  WsTrace  *trace,
                  guint     thread,
                  gint64    t0,
                  gint64    t1,
                  gpointer  user_data)
{
  WsSymptom symptom = { thread, t0, t1 };
  int height = gtk_widget_get_height (GTK_WIDGET (self->content_paned));

  ws_graph_page_show_symptom (self->graph_page, trace, &symptom,
                              kind == WS_ANALYSIS_WAIT_GRAPH ? WS_GRAPH_MODE_WAIT_GRAPH
                              : kind == WS_ANALYSIS_CRITICAL_PATH ? WS_GRAPH_MODE_CRITICAL_PATH
                              : WS_GRAPH_MODE_READY_TREE);
  ws_window_show_details_page (self, "graph");
  if (height > 0 && gtk_paned_get_position (self->content_paned) > height * 40 / 100)
    gtk_paned_set_position (self->content_paned, height * 32 / 100);
}

static void
graph_show_in_timeline_cb (WsWindow    *self,
                           guint        thread,
                           guint        event,
                           gint64       t0,
                           gint64       t1,
                           WsGraphPage *page)
{
  if (!is_ready (self) || ws_document_get_trace (self->current) != ws_graph_page_get_trace (page))
    {
      toast (self, _("The graph belongs to a trace that is not shown"));
      return;
    }
  if (event != WS_NONE)
    {
      ws_timeline_viewport_set_selected_event (ws_document_get_viewport (self->current), event);
      ws_timeline_view_reveal_event (self->timeline_view, event);
    }
  else
    ws_timeline_view_reveal_thread (self->timeline_view, thread);
  gtk_widget_grab_focus (GTK_WIDGET (self->timeline_view));
}

/* The graph page's inspector (ws-graph-page.c) on the whole trace. */
static void
inspect_trace_action (GtkWidget  *widget,
                      const char *action_name,
                      GVariant   *param)
{
  WsWindow *self = WS_WINDOW (widget);

  if (!is_ready (self))
    return;
  ws_graph_page_inspect_trace (self->graph_page, ws_document_get_trace (self->current));
  ws_window_show_details_page (self, "graph");
}

/* Contrast (ws-contrast-page.c): the ready tree of a slow instance. */
static void
contrast_ready_tree_cb (WsWindow *self,
                        WsTrace  *trace,
                        guint     thread,
                        gint64    t0,
                        gint64    t1)
{
  g_signal_emit_by_name (self, "analysis-requested", WS_ANALYSIS_READY_TREE, trace, thread, t0, t1);
}

static void mining_show_events_cb (WsWindow      *self,
                                   WsDocument    *document,
                                   WsStackSearch *search,
                                   WsMiningPage  *page);

/* An inspector finding's waits: highlighted in the timeline as the
 * Mining page's events are. */
static void
graph_show_events_cb (WsWindow      *self,
                      WsStackSearch *search,
                      WsGraphPage   *page)
{
  GArray *threads = ws_graph_page_get_bridging_threads (page);

  if (is_ready (self) && ws_document_get_trace (self->current) == ws_stack_search_get_trace (search))
    {
      mining_show_events_cb (self, self->current, search, NULL);
      /* Over-connections: the bridging threads' rows too. */
      ws_timeline_viewport_set_highlighted_threads (ws_document_get_viewport (self->current),
                                                    threads ? (const guint32 *) threads->data : NULL,
                                                    threads ? threads->len : 0);
    }
}

/* Mining (ws-mining-page.c): its events of a pattern become the window's
 * search, so the timeline highlights them and Next / Previous step
 * through them, and the graph page's search. */
static void
mining_show_events_cb (WsWindow      *self,
                       WsDocument    *document,
                       WsStackSearch *search,
                       WsMiningPage  *page)
{
  guint position, event;

  if (document != self->current && g_list_store_find (self->documents, document, &position))
    gtk_list_box_select_row (self->trace_list, gtk_list_box_get_row_at_index (self->trace_list, position));
  /* The graph page highlights them too if it shows a graph of that trace. */
  ws_graph_page_set_search (self->graph_page, search);
  if (!is_ready (self) || ws_document_get_trace (self->current) != ws_stack_search_get_trace (search))
    return;

  ws_timeline_viewport_set_highlighted_threads (ws_document_get_viewport (self->current), NULL, 0);
  g_cancellable_cancel (self->search_cancellable);
  self->search_generation++;
  g_set_object (&self->search, search);
  ws_timeline_view_set_search (self->timeline_view, search);
  event = ws_stack_search_next (search, WS_NONE, TRUE);
  if (event != WS_NONE)
    {
      ws_timeline_viewport_set_selected_event (ws_document_get_viewport (self->current), event);
      ws_timeline_view_reveal_event (self->timeline_view, event);
    }
  {
    /* Translators: search status after "Show Events" of a mined pattern */
    g_autofree char *text = g_strdup_printf (_("%s: %u events"), ws_stack_search_get_pattern (search),
                                             ws_stack_search_get_n_matches (search));
    gtk_label_set_text (self->search_status, text);
  }
  update_actions (self);
}

/* The Mining page wants height: give it most of the pane, as the graph.
 * Before the pane has a size (the page shown right after loading), try
 * again once it has been laid out. */
static gboolean
give_mining_room (gpointer data)
{
  WsWindow *self = data;
  GtkWidget *paned = gtk_widget_get_ancestor (GTK_WIDGET (self->details_stack), GTK_TYPE_PANED);
  int height = paned ? gtk_widget_get_height (paned) : 0;
  const char *page = gtk_stack_get_visible_child_name (self->details_stack);
  /* The Contrast page shows two graphs and three lists: nearly all of it. */
  int share = g_strcmp0 (page, "contrast") == 0 ? 10 : 32;

  if (g_strcmp0 (page, "mining") != 0 && g_strcmp0 (page, "contrast") != 0)
    return G_SOURCE_REMOVE;
  if (height == 0)
    {
      /* At most a second of retries (the pane may not be shown at all). */
      guint tries = GPOINTER_TO_UINT (g_object_get_data (G_OBJECT (self), "ws-mining-room-tries"));
      g_object_set_data (G_OBJECT (self), "ws-mining-room-tries", GUINT_TO_POINTER (tries + 1));
      return tries < 20 && gtk_widget_get_mapped (GTK_WIDGET (self)) ? G_SOURCE_CONTINUE : G_SOURCE_REMOVE;
    }
  g_object_set_data (G_OBJECT (self), "ws-mining-room-tries", NULL);
  if (gtk_paned_get_position (GTK_PANED (paned)) > height * (share + 8) / 100)
    gtk_paned_set_position (GTK_PANED (paned), height * share / 100);
  return G_SOURCE_REMOVE;
}

static void
details_page_changed_cb (WsWindow *self)
{
  g_object_set_data (G_OBJECT (self), "ws-mining-room-tries", NULL);
  if (give_mining_room (self) == G_SOURCE_CONTINUE)
    g_timeout_add_full (G_PRIORITY_DEFAULT, 50, give_mining_room, g_object_ref (self), g_object_unref);
}

/* ------------------------------------------------------------------ */
/* GObject                                                              */

static void
ws_window_dispose (GObject *object)
{
  WsWindow *self = WS_WINDOW (object);

  g_cancellable_cancel (self->search_cancellable);
  g_clear_object (&self->search_cancellable);
  for (guint i = 0; self->documents && i < g_list_model_get_n_items (G_LIST_MODEL (self->documents)); i++)
    {
      g_autoptr(WsDocument) document = g_list_model_get_item (G_LIST_MODEL (self->documents), i);
      ws_document_cancel (document);
    }
  if (self->document_signals)
    g_signal_group_set_target (self->document_signals, NULL);
  if (self->viewport_signals)
    g_signal_group_set_target (self->viewport_signals, NULL);
  g_clear_object (&self->document_signals);
  g_clear_object (&self->viewport_signals);
  g_clear_object (&self->current);
  g_clear_object (&self->search);
  g_clear_object (&self->settings);

  gtk_widget_dispose_template (GTK_WIDGET (self), WS_TYPE_WINDOW);
  g_clear_object (&self->documents);
  g_clear_object (&self->session);

  G_OBJECT_CLASS (ws_window_parent_class)->dispose (object);
}

static void
ws_window_class_init (WsWindowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = ws_window_dispose;

  /**
   * WsWindow::analysis-requested:
   * @kind: a #WsAnalysisKind
   * @trace: the trace
   * @thread: the thread index of the symptom
   * @t0: start of the window (ns)
   * @t1: end of the window (ns)
   *
   * The user asked for a wait graph or ready tree of a selected window.
   */
  signals[ANALYSIS_REQUESTED] =
    g_signal_new ("analysis-requested", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 5,
                  G_TYPE_INT, WS_TYPE_TRACE, G_TYPE_UINT, G_TYPE_INT64, G_TYPE_INT64);

  g_type_ensure (WS_TYPE_TIMELINE_VIEW);
  g_type_ensure (WS_TYPE_TIMELINE_LEGEND);
  g_type_ensure (WS_TYPE_DETAILS_PANE);
  g_type_ensure (WS_TYPE_THREAD_TABLE);
  g_type_ensure (WS_TYPE_MINING_PAGE);
  g_type_ensure (WS_TYPE_CONTRAST_PAGE);
  g_type_ensure (WS_TYPE_GRAPH_PAGE);
  g_type_ensure (WS_TYPE_OVERVIEW_PAGE);
  g_type_ensure (WS_TYPE_FINDINGS_PAGE);
  ws_window_record_install_actions (widget_class);

  gtk_widget_class_set_template_from_resource (widget_class, "/io/github/waitscope/Waitscope/ws-window.ui");
  gtk_widget_class_bind_template_child (widget_class, WsWindow, toast_overlay);
  gtk_widget_class_bind_template_child (widget_class, WsWindow, window_title);
  gtk_widget_class_bind_template_child (widget_class, WsWindow, sidebar_button);
  gtk_widget_class_bind_template_child (widget_class, WsWindow, search_button);
  gtk_widget_class_bind_template_child (widget_class, WsWindow, zoom_box);
  gtk_widget_class_bind_template_child (widget_class, WsWindow, search_bar);
  gtk_widget_class_bind_template_child (widget_class, WsWindow, search_entry);
  gtk_widget_class_bind_template_child (widget_class, WsWindow, search_status);
  gtk_widget_class_bind_template_child (widget_class, WsWindow, sidebar);
  gtk_widget_class_bind_template_child (widget_class, WsWindow, trace_list);
  gtk_widget_class_bind_template_child (widget_class, WsWindow, main_stack);
  gtk_widget_class_bind_template_child (widget_class, WsWindow, loading_page);
  gtk_widget_class_bind_template_child (widget_class, WsWindow, error_page);
  gtk_widget_class_bind_template_child (widget_class, WsWindow, load_progress);
  gtk_widget_class_bind_template_child (widget_class, WsWindow, timeline_scroller);
  gtk_widget_class_bind_template_child (widget_class, WsWindow, timeline_view);
  gtk_widget_class_bind_template_child (widget_class, WsWindow, selection_revealer);
  gtk_widget_class_bind_template_child (widget_class, WsWindow, selection_label);
  gtk_widget_class_bind_template_child (widget_class, WsWindow, legend);
  gtk_widget_class_bind_template_child (widget_class, WsWindow, details_stack);
  gtk_widget_class_bind_template_child (widget_class, WsWindow, details_pane);
  gtk_widget_class_bind_template_child (widget_class, WsWindow, thread_table);
  gtk_widget_class_bind_template_child (widget_class, WsWindow, mining_page);
  gtk_widget_class_bind_template_child (widget_class, WsWindow, overview_page);
  gtk_widget_class_bind_template_child (widget_class, WsWindow, graph_page);
  gtk_widget_class_bind_template_child (widget_class, WsWindow, findings_page);
  gtk_widget_class_bind_template_child (widget_class, WsWindow, contrast_page);
  gtk_widget_class_bind_template_child (widget_class, WsWindow, content_paned);
  gtk_widget_class_bind_template_child (widget_class, WsWindow, recent_section);

  gtk_widget_class_install_action (widget_class, "win.open", NULL, open_action);
  gtk_widget_class_install_action (widget_class, "win.close-trace", NULL, close_trace_action);
  gtk_widget_class_install_action (widget_class, "win.cancel-load", NULL, cancel_load_action);
  gtk_widget_class_install_action (widget_class, "win.export-timeline", NULL, export_timeline_action);
  gtk_widget_class_install_action (widget_class, "win.export-chrome", NULL, export_chrome_action);
  gtk_widget_class_install_action (widget_class, "win.record-waits-help", NULL, record_waits_help_action);
  gtk_widget_class_install_action (widget_class, "win.search", NULL, toggle_search_action);
  gtk_widget_class_install_action (widget_class, "win.search-next", NULL, search_step_action);
  gtk_widget_class_install_action (widget_class, "win.search-previous", NULL, search_step_action);
  gtk_widget_class_install_action (widget_class, "win.toggle-sidebar", NULL, toggle_sidebar_action);
  gtk_widget_class_install_action (widget_class, "win.show-wait-graph", NULL, analysis_action);
  gtk_widget_class_install_action (widget_class, "win.show-ready-tree", NULL, analysis_action);
  gtk_widget_class_install_action (widget_class, "win.show-critical-path", NULL, analysis_action);
  ws_window_findings_install_actions (widget_class);
  gtk_widget_class_install_action (widget_class, "win.inspect-trace", NULL, inspect_trace_action);
  gtk_widget_class_install_action (widget_class, "win.zoom-in", NULL, forward_action);
  gtk_widget_class_install_action (widget_class, "win.zoom-out", NULL, forward_action);
  gtk_widget_class_install_action (widget_class, "win.zoom-fit", NULL, forward_action);
  gtk_widget_class_install_action (widget_class, "win.zoom-back", NULL, forward_action);
  gtk_widget_class_install_action (widget_class, "win.zoom-selection", NULL, forward_action);
  gtk_widget_class_install_action (widget_class, "win.clear-selection", NULL, forward_action);
  ws_window_anomaly_install (widget_class);
}

static void
ws_window_init (WsWindow *self)
{
  GtkDropTarget *drop;
  GtkEventController *keys;

  gtk_widget_init_template (GTK_WIDGET (self));

  self->session = ws_session_new (NULL);
  self->documents = g_object_ref (G_LIST_STORE (ws_session_get_documents (self->session)));
  gtk_list_box_bind_model (self->trace_list, G_LIST_MODEL (self->documents), create_row, self, NULL);
  g_signal_connect_swapped (self->trace_list, "row-selected", G_CALLBACK (row_selected_cb), self);
  g_object_bind_property (self->sidebar_button, "active", self->sidebar, "visible", G_BINDING_SYNC_CREATE);

  gtk_search_bar_connect_entry (self->search_bar, GTK_EDITABLE (self->search_entry));
  gtk_search_bar_set_key_capture_widget (self->search_bar, GTK_WIDGET (self));
  g_object_bind_property (self->search_bar, "search-mode-enabled", self->search_button, "active",
                          G_BINDING_SYNC_CREATE);
  g_signal_connect_swapped (self->search_entry, "search-changed", G_CALLBACK (search_changed_cb), self);
  g_signal_connect_swapped (self->search_entry, "activate", G_CALLBACK (search_activate_cb), self);
  keys = gtk_event_controller_key_new ();
  gtk_event_controller_set_propagation_phase (keys, GTK_PHASE_CAPTURE);
  g_signal_connect_swapped (keys, "key-pressed", G_CALLBACK (search_key_cb), self);
  gtk_widget_add_controller (GTK_WIDGET (self->search_entry), keys);

  self->document_signals = g_signal_group_new (WS_TYPE_DOCUMENT);
  g_signal_group_connect_swapped (self->document_signals, "notify::state", G_CALLBACK (document_state_changed), self);
  g_signal_group_connect_swapped (self->document_signals, "notify::progress", G_CALLBACK (update_loading_page), self);
  g_signal_group_connect_swapped (self->document_signals, "notify::message", G_CALLBACK (update_loading_page), self);
  g_signal_group_connect_swapped (self->document_signals, "notify::subtitle", G_CALLBACK (update_title), self);

  self->viewport_signals = g_signal_group_new (WS_TYPE_TIMELINE_VIEWPORT);
  g_signal_group_connect_swapped (self->viewport_signals, "selection-changed", G_CALLBACK (update_selection), self);
  g_signal_group_connect_swapped (self->viewport_signals, "notify::hovered-event", G_CALLBACK (update_details), self);
  g_signal_group_connect_swapped (self->viewport_signals, "notify::selected-event", G_CALLBACK (update_details), self);
  g_signal_group_connect_swapped (self->viewport_signals, "notify::can-go-back", G_CALLBACK (update_actions), self);

  ws_timeline_legend_set_renderer (self->legend, ws_timeline_view_get_renderer (self->timeline_view));
  g_signal_connect_swapped (self->thread_table, "thread-activated", G_CALLBACK (thread_activated_cb), self);
  g_signal_connect_swapped (self->contrast_page, "open-ready-tree", G_CALLBACK (contrast_ready_tree_cb), self);
  g_signal_connect_swapped (self->mining_page, "show-events", G_CALLBACK (mining_show_events_cb), self);
  g_signal_connect_swapped (self->details_stack, "notify::visible-child-name", G_CALLBACK (details_page_changed_cb), self);
  g_signal_connect (self, "analysis-requested", G_CALLBACK (show_analysis_cb), NULL);
  g_signal_connect_swapped (self->overview_page, "show-analysis", G_CALLBACK (show_analysis_cb), self);
  g_signal_connect_swapped (self->overview_page, "show-mining", G_CALLBACK (overview_show_mining_cb), self);
  g_signal_connect_swapped (self->graph_page, "show-in-timeline", G_CALLBACK (graph_show_in_timeline_cb), self);
  g_signal_connect_swapped (self->graph_page, "show-events", G_CALLBACK (graph_show_events_cb), self);

  drop = gtk_drop_target_new (GDK_TYPE_FILE_LIST, GDK_ACTION_COPY);
  g_signal_connect (drop, "drop", G_CALLBACK (drop_cb), self);
  gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (drop));

  show_document (self, NULL);
}

/* The application's settings, asked for by property so that the window
 * needs no header of the application's (which creates windows). */
static GSettings *
application_settings (GtkApplication *application)
{
  GSettings *settings = NULL;

  if (application != NULL && g_object_class_find_property (G_OBJECT_GET_CLASS (application), "settings") != NULL)
    g_object_get (application, "settings", &settings, NULL);
  return settings;
}

/**
 * ws_window_new:
 * @application: a #WsApplication (its settings keep the window size and
 *   recent files)
 */
WsWindow *
ws_window_new (GtkApplication *application)
{
  WsWindow *self = g_object_new (WS_TYPE_WINDOW, "application", application, NULL);
  GSettings *settings = application_settings (application);

  if (settings != NULL)
    {
      self->settings = settings;
      g_settings_bind (settings, "window-width", self, "default-width", G_SETTINGS_BIND_DEFAULT);
      g_settings_bind (settings, "window-height", self, "default-height", G_SETTINGS_BIND_DEFAULT);
      g_settings_bind (settings, "window-maximized", self, "maximized", G_SETTINGS_BIND_DEFAULT);
      g_settings_bind (settings, "show-sidebar", self->sidebar_button, "active", G_SETTINGS_BIND_DEFAULT);
      g_signal_connect_object (settings, "changed::recent-files", G_CALLBACK (update_recent_menu), self,
                               G_CONNECT_SWAPPED);
      g_signal_connect_object (settings, "changed::timeline-row-height", G_CALLBACK (document_state_changed), self,
                               G_CONNECT_SWAPPED);
    }
  /* The pages share the window's state through the session, settings included. */
  ws_session_set_settings (self->session, settings);
  ws_mining_page_set_session (self->mining_page, self->session);
  ws_overview_page_set_session (self->overview_page, self->session);
  ws_graph_page_set_session (self->graph_page, self->session);
  ws_window_findings_init (self, self->findings_page);
  ws_window_record_init (self, settings);
  ws_contrast_page_set_session (self->contrast_page, self->session);
  ws_window_anomaly_attach (self);
  update_recent_menu (self);
  return self;
}

/**
 * ws_window_get_session:
 * Returns: (transfer none): the state the window's pages share
 */
WsSession *
ws_window_get_session (WsWindow *self)
{
  g_return_val_if_fail (WS_IS_WINDOW (self), NULL);
  return self->session;
}

void
ws_window_show_toast (WsWindow   *self,
                      const char *message)
{
  g_return_if_fail (WS_IS_WINDOW (self));
  toast (self, message);
}

/**
 * ws_window_get_current_document:
 * Returns: (transfer none) (nullable):
 */
WsDocument *
ws_window_get_current_document (WsWindow *self)
{
  g_return_val_if_fail (WS_IS_WINDOW (self), NULL);
  return self->current;
}

GListModel *
ws_window_get_documents (WsWindow *self)
{
  g_return_val_if_fail (WS_IS_WINDOW (self), NULL);
  return G_LIST_MODEL (self->documents);
}

WsTimelineView *
ws_window_get_timeline_view (WsWindow *self)
{
  g_return_val_if_fail (WS_IS_WINDOW (self), NULL);
  return self->timeline_view;
}

WsDetailsPane *
ws_window_get_details_pane (WsWindow *self)
{
  g_return_val_if_fail (WS_IS_WINDOW (self), NULL);
  return self->details_pane;
}

WsThreadTable *
ws_window_get_thread_table (WsWindow *self)
{
  g_return_val_if_fail (WS_IS_WINDOW (self), NULL);
  return self->thread_table;
}

/**
 * ws_window_get_search:
 * Returns: (transfer none) (nullable): the finished search, if any
 */
WsStackSearch *
ws_window_get_search (WsWindow *self)
{
  g_return_val_if_fail (WS_IS_WINDOW (self), NULL);
  return self->search;
}

void
ws_window_set_search_text (WsWindow   *self,
                           const char *text)
{
  g_return_if_fail (WS_IS_WINDOW (self));
  gtk_search_bar_set_search_mode (self->search_bar, TRUE);
  gtk_editable_set_text (GTK_EDITABLE (self->search_entry), text);
}

const char *
ws_window_get_search_status (WsWindow *self)
{
  g_return_val_if_fail (WS_IS_WINDOW (self), NULL);
  return gtk_label_get_text (self->search_status);
}

/**
 * ws_window_show_details_page:
 * @name: "details" or "threads"
 */
void
ws_window_show_details_page (WsWindow   *self,
                             const char *name)
{
  g_return_if_fail (WS_IS_WINDOW (self));
  gtk_stack_set_visible_child_name (self->details_stack, name);
}

/**
 * ws_window_get_mining_page:
 * Returns: (transfer none): the Mining page of the lower pane
 */
WsMiningPage *
ws_window_get_mining_page (WsWindow *self)
{
  g_return_val_if_fail (WS_IS_WINDOW (self), NULL);
  return self->mining_page;
}

/* Returns: (transfer none): the graph page */
WsGraphPage *
ws_window_get_graph_page (WsWindow *self)
{
  g_return_val_if_fail (WS_IS_WINDOW (self), NULL);
  return self->graph_page;
}

/* Returns: (transfer none): the Findings page */
WsFindingsPage *
ws_window_get_findings_page (WsWindow *self)
{
  g_return_val_if_fail (WS_IS_WINDOW (self), NULL);
  return self->findings_page;
}

/* Returns: (transfer none): the name of the page the details stack shows */
const char *
ws_window_get_details_page (WsWindow *self)
{
  g_return_val_if_fail (WS_IS_WINDOW (self), NULL);
  return gtk_stack_get_visible_child_name (self->details_stack);
}
