/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib-object.h>

#include "ws-progress.h"

G_BEGIN_DECLS

/**
 * WsProgressRelayFunc:
 * @fraction: the latest fraction reported, negative when unknown
 * @message: (nullable): the latest message reported since the previous
 *   call, or %NULL when no report since then carried one
 * @user_data: as given to ws_progress_relay_new()
 *
 * Called on the main thread with the latest of the reports coalesced since
 * the previous call.
 */
typedef void (*WsProgressRelayFunc) (double      fraction,
                                     const char *message,
                                     gpointer    user_data);

/*
 * WsProgressRelay: carries a worker thread's progress reports to the main
 * thread.  Reports keep only the latest fraction (and the latest non-%NULL
 * message); one idle source at a time publishes them, however many reports
 * arrive meanwhile.  The owner keeps the relay at least as long as any
 * worker that reports into it.
 */
#define WS_TYPE_PROGRESS_RELAY (ws_progress_relay_get_type ())
G_DECLARE_FINAL_TYPE (WsProgressRelay, ws_progress_relay, WS, PROGRESS_RELAY, GObject)

WsProgressRelay *ws_progress_relay_new            (WsProgressRelayFunc  func,
                                                   gpointer             user_data,
                                                   GDestroyNotify       destroy);
WsProgressRelay *ws_progress_relay_new_for_owner  (gpointer             owner,
                                                   WsProgressRelayFunc  func);
void             ws_progress_relay_report         (double               fraction,
                                                   const char          *message,
                                                   gpointer             relay);
void             ws_progress_relay_cancel_pending (WsProgressRelay     *self);

G_END_DECLS
