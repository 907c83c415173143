/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

/* The part of the trace-cmd importer that needs libtracecmd, built only
 * when it is installed (ws-tracecmd-importer.c says so otherwise). */

#include "ws-importer.h"

G_BEGIN_DECLS

WsTrace *ws_tracecmd_read (const char     *path,
                           const char     *display_name,
                           WsStackTable   *stacks,
                           WsProgressFunc  progress,
                           gpointer        progress_data,
                           GCancellable   *cancellable,
                           GError        **error);

G_END_DECLS
