/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "ws-report.h"

G_BEGIN_DECLS

struct _WsReport
{
  GObject        parent_instance;

  WsSessionFile *session;
  GPtrArray     *traces;    /* WsTrace or NULL (unused by any finding), by session index */
  GPtrArray     *figures;   /* WsReportFigure or NULL, by finding */
  GPtrArray     *errors;    /* char* or NULL: why a finding has no figure */
  gboolean       dark;
};

char *ws_report_short_frame (const char *frame);

G_END_DECLS
