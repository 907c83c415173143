/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gtk/gtk.h>

#include "ws-pin.h"
#include "ws-session.h"

G_BEGIN_DECLS

/*
 * WsPage: a page of the window's lower pane, as a plug-in.  The window
 * hands every page the same WsSession through the "session" property (one
 * loop, ws_window_add_page()), and asks the page that owns a pin kind to
 * capture or show a pin of it: the window knows no page's pins.
 */
#define WS_TYPE_PAGE (ws_page_get_type ())
G_DECLARE_DERIVABLE_TYPE (WsPage, ws_page, WS, PAGE, GtkWidget)

/**
 * WsPageClass:
 * @session_changed: the session was set (or replaced, or cleared to
 *   %NULL): disconnect from @old_session (alive until the hook returns)
 *   and connect to what the page watches in @session.  The session's one
 *   home is the page's "session" property: read it with
 *   ws_page_get_session(), keep no copy
 * @pin_kinds: the pin kinds (ws-pin-kind.h names) the page captures and
 *   shows, %NULL-terminated; %NULL when it has none
 * @capture_pin: a pin of what the page shows.  @what is the variant asked
 *   for (%NULL for the page's own choice; "slow", "fast", "pattern" for
 *   the Contrast page's win.pin-contrast); @files gets the traces the pin
 *   spans.  Returns %NULL with @message set to what the user must do
 *   first, or %NULL without @message to let the window pin the timeline
 * @apply_pin: show @pin again; the window shows the page first.  @traces
 *   are the pin's traces, opened where the files still exist (%NULL where
 *   they do not)
 */
struct _WsPageClass
{
  GtkWidgetClass parent_class;

  void                (*session_changed) (WsPage     *self,
                                          WsSession  *old_session,
                                          WsSession  *session);
  const char * const *(*pin_kinds)       (WsPage     *self);
  WsPin              *(*capture_pin)     (WsPage     *self,
                                          const char *what,
                                          GPtrArray  *files,
                                          char      **message);
  void                (*apply_pin)       (WsPage     *self,
                                          WsPin      *pin,
                                          GFile     **traces,
                                          guint       n_traces);

  /*< private >*/
  const char *title;
  const char *icon_name;
  gpointer    padding[8];
};

void        ws_page_class_set_title     (WsPageClass *klass,
                                         const char  *title);
void        ws_page_class_set_icon_name (WsPageClass *klass,
                                         const char  *icon_name);

WsSession  *ws_page_get_session         (WsPage      *self);
void        ws_page_set_session         (WsPage      *self,
                                         WsSession   *session);
const char *ws_page_get_title           (WsPage      *self);
const char *ws_page_get_icon_name       (WsPage      *self);
gboolean    ws_page_owns_pin_kind       (WsPage      *self,
                                         const char  *kind);
WsPin      *ws_page_capture_pin         (WsPage      *self,
                                         const char  *what,
                                         GPtrArray   *files,
                                         char       **message);
void        ws_page_apply_pin           (WsPage      *self,
                                         WsPin       *pin,
                                         GFile      **traces,
                                         guint        n_traces);

G_END_DECLS
