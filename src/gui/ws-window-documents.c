/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The window's list of open traces (the sidebar) and what the main stack
 * shows for the selected one: its loading page, its error, or its
 * timeline; closing one selects its neighbour.
 */
#include "config.h"

#include <glib/gi18n.h>

#include "ws-window-private.h"

void
_ws_window_update_title (WsWindow *self)
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

void
_ws_window_update_loading_page (WsWindow *self)
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

void
_ws_window_document_state_changed (WsWindow *self)
{
  _ws_window_show_document (self, self->current);
}

void
_ws_window_show_document (WsWindow   *self,
               WsDocument *document)
{
  /* A trace shown: the timeline comes back where a digest stood. */
  if (document != NULL)
    _ws_window_digest_leave (self);
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
      _ws_window_update_loading_page (self);
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

  _ws_window_update_title (self);
  _ws_window_update_selection (self);
  _ws_window_update_details (self);
  _ws_window_update_actions (self);
}

void
_ws_window_close_document (WsWindow   *self,
                WsDocument *document)
{
  guint position;

  if (!g_list_store_find (self->documents, document, &position))
    return;
  ws_document_cancel (document);
  /* Pages that showed it show it no more. */
  ws_graph_page_forget_trace (self->graph_page, ws_document_get_trace (document));
  g_list_store_remove (self->documents, position);
  if (document == self->current)
    {
      guint n = g_list_model_get_n_items (G_LIST_MODEL (self->documents));
      GtkListBoxRow *row = n ? gtk_list_box_get_row_at_index (self->trace_list, MIN (position, n - 1)) : NULL;

      if (row != NULL)
        gtk_list_box_select_row (self->trace_list, row);
      else
        _ws_window_show_document (self, NULL);
    }
}

static void
close_clicked_cb (GtkButton *button,
                  WsWindow  *self)
{
  _ws_window_close_document (self, g_object_get_data (G_OBJECT (button), "document"));
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
  /* Two lines rather than "31 threads…" in a 250 px sidebar. */
  gtk_label_set_wrap (GTK_LABEL (subtitle), TRUE);
  gtk_label_set_wrap_mode (GTK_LABEL (subtitle), PANGO_WRAP_WORD_CHAR);
  gtk_widget_add_css_class (subtitle, "caption");
  gtk_widget_add_css_class (subtitle, "dim-label");
  g_object_bind_property (document, "title", title, "label", G_BINDING_SYNC_CREATE);
  /* A long file name is cut in the middle, whole in the tooltip. */
  g_object_bind_property (document, "title", title, "tooltip-text", G_BINDING_SYNC_CREATE);
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
    _ws_window_show_document (self, g_object_get_data (G_OBJECT (row), "document"));
}

/* The list of open traces shows only when there is one: on the welcome
 * page (and the Record page with nothing open) an empty pane beside it
 * would only take room.  The button and F9 wait until a trace is open. */
static void
update_sidebar (WsWindow *self)
{
  gboolean any = g_list_model_get_n_items (G_LIST_MODEL (self->documents)) > 0;

  gtk_widget_set_visible (self->sidebar, any && gtk_toggle_button_get_active (self->sidebar_button));
  gtk_widget_set_visible (GTK_WIDGET (self->sidebar_button), any);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.toggle-sidebar", any);
}

void
_ws_window_documents_init (WsWindow *self)
{
  g_signal_connect_object (self->documents, "items-changed", G_CALLBACK (update_sidebar), self, G_CONNECT_SWAPPED);
  g_signal_connect_swapped (self->sidebar_button, "notify::active", G_CALLBACK (update_sidebar), self);
  update_sidebar (self);
  gtk_list_box_bind_model (self->trace_list, G_LIST_MODEL (self->documents), create_row, self, NULL);
  g_signal_connect_swapped (self->trace_list, "row-selected", G_CALLBACK (row_selected_cb), self);

  self->document_signals = g_signal_group_new (WS_TYPE_DOCUMENT);
  g_signal_group_connect_swapped (self->document_signals, "notify::state", G_CALLBACK (_ws_window_document_state_changed), self);
  g_signal_group_connect_swapped (self->document_signals, "notify::progress", G_CALLBACK (_ws_window_update_loading_page), self);
  g_signal_group_connect_swapped (self->document_signals, "notify::message", G_CALLBACK (_ws_window_update_loading_page), self);
  g_signal_group_connect_swapped (self->document_signals, "notify::subtitle", G_CALLBACK (_ws_window_update_title), self);
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
