/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The window's side of the welcome and Record pages: both live in the
 * window's main stack (ws-window.ui); this file finds them by their
 * stack page names, so that the window itself only calls in here.
 */
#include "config.h"

#include "ws-record-page.h"
#include "ws-welcome-page.h"
#include "ws-window-record.h"

#define RETURN_PAGE_KEY "ws-record-return-page"

static GtkStack *
main_stack (WsWindow *window)
{
  return GTK_STACK (gtk_widget_get_template_child (GTK_WIDGET (window), WS_TYPE_WINDOW, "main_stack"));
}

static void
show_record_page (GtkWidget  *widget,
                  const char *name,
                  GVariant   *param)
{
  GtkStack *stack = main_stack (WS_WINDOW (widget));
  const char *current = gtk_stack_get_visible_child_name (stack);

  /* Back returns to what was shown (the welcome page or a trace). */
  if (g_strcmp0 (current, "record") != 0)
    g_object_set_data_full (G_OBJECT (widget), RETURN_PAGE_KEY, g_strdup (current ? current : "welcome"), g_free);
  gtk_stack_set_visible_child_name (stack, "record");
}

static void
record_page_closed (WsWindow *window)
{
  const char *back = g_object_get_data (G_OBJECT (window), RETURN_PAGE_KEY);

  gtk_stack_set_visible_child_name (main_stack (window), back ? back : "welcome");
}

static void
record_page_recorded (WsWindow *window,
                      GFile    *file)
{
  /* Opening shows the loading page, then the trace. */
  ws_window_open_file (window, file);
}

void
ws_window_record_install_actions (GtkWidgetClass *widget_class)
{
  g_type_ensure (WS_TYPE_WELCOME_PAGE);
  g_type_ensure (WS_TYPE_RECORD_PAGE);
  gtk_widget_class_install_action (widget_class, "win.record", NULL, show_record_page);
}

void
ws_window_record_init (WsWindow  *window,
                       GSettings *settings)
{
  GtkWidget *welcome = gtk_stack_get_child_by_name (main_stack (window), "welcome");
  GtkWidget *record = gtk_stack_get_child_by_name (main_stack (window), "record");

  ws_welcome_page_set_settings (WS_WELCOME_PAGE (welcome), settings);
  g_signal_connect_object (record, "recorded", G_CALLBACK (record_page_recorded), window, G_CONNECT_SWAPPED);
  g_signal_connect_object (record, "close", G_CALLBACK (record_page_closed), window, G_CONNECT_SWAPPED);
}
