/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

#include "ws-stack-table.h"

G_BEGIN_DECLS

/*
 * The frames of LTTng's call-stack contexts (`callstack_kernel`,
 * `callstack_user`): bare instruction addresses, named through a
 * kallsyms-style file beside the trace when there is one.
 */
typedef struct _WsCtfSymbols WsCtfSymbols;

WsCtfSymbols *ws_ctf_symbols_load  (const char * const *dirs,
                                    GError            **error);
void          ws_ctf_symbols_free  (WsCtfSymbols       *self);
gboolean      ws_ctf_symbols_found (const WsCtfSymbols *self);
WsFrameId     ws_ctf_symbols_frame (WsCtfSymbols       *self,
                                    WsStackTable       *stacks,
                                    guint64             address,
                                    gboolean            kernel);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (WsCtfSymbols, ws_ctf_symbols_free)

G_END_DECLS
