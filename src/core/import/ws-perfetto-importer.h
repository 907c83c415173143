/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "ws-importer.h"

G_BEGIN_DECLS

gboolean  ws_perfetto_importer_sniff (const guint8   *head,
                                      gsize           len);
WsTrace  *ws_perfetto_importer_load  (const char     *path,
                                      WsStackTable   *stacks,
                                      WsProgressFunc  progress,
                                      gpointer        progress_data,
                                      GCancellable   *cancellable,
                                      GError        **error);

G_END_DECLS
