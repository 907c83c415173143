/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gio/gio.h>

#include "ws-progress.h"
#include "ws-trace.h"

G_BEGIN_DECLS

gboolean  ws_folded_importer_sniff        (const guint8   *head,
                                           gsize           len);
WsTrace  *ws_folded_importer_load         (const char     *path,
                                           WsStackTable   *stacks,
                                           WsProgressFunc  progress,
                                           gpointer        progress_data,
                                           GCancellable   *cancellable,
                                           GError        **error);
WsTrace  *ws_folded_importer_load_stream  (GInputStream   *stream,
                                           const char     *display_name,
                                           WsStackTable   *stacks,
                                           WsProgressFunc  progress,
                                           gpointer        progress_data,
                                           GCancellable   *cancellable,
                                           GError        **error);

G_END_DECLS
