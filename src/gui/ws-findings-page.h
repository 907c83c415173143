/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gtk/gtk.h>

#include "ws-page.h"

G_BEGIN_DECLS

/**
 * WsFindingsPage:
 *
 * The Findings list of a window: the session's pins in order, each with
 * its title and note to edit, moved, deleted and undone; Open / Save the
 * `.waitscope` file, autosave to a recovery copy, export the report and
 * start the presentation.  A #WsPage: the window binds the session once,
 * as for every page.  Opening traces and showing a pin's view are the
 * window's: the page asks through "open-trace" and "show-pin".
 */
#define WS_TYPE_FINDINGS_PAGE (ws_findings_page_get_type ())
G_DECLARE_FINAL_TYPE (WsFindingsPage, ws_findings_page, WS, FINDINGS_PAGE, WsPage)

void      ws_findings_page_add_pin        (WsFindingsPage *self,
                                           WsPin          *pin,
                                           GFile          *trace);
void      ws_findings_page_add_pin_traces (WsFindingsPage *self,
                                           WsPin          *pin,
                                           GFile         **traces,
                                           guint           n_traces);
gboolean  ws_findings_page_open_session   (WsFindingsPage *self,
                                           GFile          *file,
                                           GError        **error);
gboolean  ws_findings_page_save           (WsFindingsPage *self,
                                           const char     *path,
                                           GError        **error);
gboolean  ws_findings_page_export_report  (WsFindingsPage *self,
                                           const char     *path,
                                           GError        **error);
void      ws_findings_page_present        (WsFindingsPage *self);
gboolean  ws_findings_page_autosave_now   (WsFindingsPage *self);
gboolean  ws_findings_page_recover        (WsFindingsPage *self);
void      ws_findings_page_select         (WsFindingsPage *self,
                                           guint           position);
void      ws_findings_page_set_note_text  (WsFindingsPage *self,
                                           const char     *title,
                                           const char     *note);
const char *ws_findings_page_get_message  (WsFindingsPage *self);
guint     ws_findings_page_get_n_pending  (WsFindingsPage *self);
gboolean  ws_findings_page_has_unsaved    (WsFindingsPage *self);
void      ws_findings_page_locate_trace   (WsFindingsPage  *self,
                                           guint            index,
                                           GFile           *file);
void      ws_findings_page_discard        (WsFindingsPage *self);
GFile    *ws_findings_page_dup_pin_trace  (WsFindingsPage *self,
                                           WsPin          *pin,
                                           guint           i);
void      ws_findings_page_save_async     (WsFindingsPage      *self,
                                           GAsyncReadyCallback  callback,
                                           gpointer             user_data);
gboolean  ws_findings_page_save_finish    (WsFindingsPage  *self,
                                           GAsyncResult    *result,
                                           GError         **error);

G_END_DECLS
