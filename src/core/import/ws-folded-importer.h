/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gio/gio.h>

#include "ws-importer.h"
#include "ws-progress.h"
#include "ws-trace.h"

G_BEGIN_DECLS

WsImporterSniffFunc    ws_folded_importer_sniff;
WsImporterLoadFileFunc ws_folded_importer_load;
WsTrace  *ws_folded_importer_load_stream  (GInputStream   *stream,
                                           const char     *display_name,
                                           WsStackTable   *stacks,
                                           WsProgressFunc  progress,
                                           gpointer        progress_data,
                                           GCancellable   *cancellable,
                                           GError        **error);

G_END_DECLS
