/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "ws-report-figure.h"
#include "ws-session-file.h"

G_BEGIN_DECLS

/**
 * WsReport:
 *
 * A session's findings redrawn from its traces, written as one
 * self-contained HTML file or a multi-page PDF.  The traces are checked
 * (content hash) and loaded once; each figure is built on first use.
 * No GTK: the CLI's `report` command and the GUI's export share it.
 */
#define WS_TYPE_REPORT (ws_report_get_type ())
G_DECLARE_FINAL_TYPE (WsReport, ws_report, WS, REPORT, GObject)

WsReport       *ws_report_new            (WsSessionFile  *session,
                                          GError        **error);
WsSessionFile  *ws_report_get_session    (WsReport       *self);
WsTrace        *ws_report_get_trace      (WsReport       *self,
                                          guint           index);
void            ws_report_set_dark       (WsReport       *self,
                                          gboolean        dark);
WsReportFigure *ws_report_get_figure     (WsReport       *self,
                                          guint           finding,
                                          const char    **error_message);
GPtrArray      *ws_report_dup_facts      (WsReport       *self,
                                          guint           finding);
gboolean        ws_report_write_html     (WsReport       *self,
                                          const char     *path,
                                          GError        **error);
gboolean        ws_report_write_pdf      (WsReport       *self,
                                          const char     *path,
                                          GError        **error);
gboolean        ws_report_write          (WsReport       *self,
                                          const char     *path,
                                          GError        **error);
guint           ws_report_count_pdf_pages (WsReport      *self);

G_END_DECLS
