/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

/* The part of the CTF importer that needs libbabeltrace2, built only when
 * it is installed (ws-ctf-importer.c says so otherwise). */

#include "ws-importer.h"

G_BEGIN_DECLS

WsTrace *ws_ctf_read (const char * const *trace_dirs,
                      const char         *display_name,
                      WsStackTable       *stacks,
                      WsProgressFunc      progress,
                      gpointer            progress_data,
                      GCancellable       *cancellable,
                      GError            **error);

G_END_DECLS
