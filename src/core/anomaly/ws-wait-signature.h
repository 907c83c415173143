/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib-object.h>

#include "ws-trace.h"

G_BEGIN_DECLS

/* The default number of user-space frames in a signature (see
 * docs/anomaly-detection.md for why two). */
#define WS_WAIT_SIGNATURE_DEFAULT_DEPTH 2
#define WS_WAIT_SIGNATURE_MAX_DEPTH 16

/* The frames skipped between a signature's anchor and its depth frames
 * (ws-wait-signature.c): never a symbol. */
#define WS_WAIT_SIGNATURE_ELISION "…"
/* Signatures are anchored (version 2): the history keeps their waits
 * apart from those recorded under version 1's signatures. */
#define WS_WAIT_SIGNATURE_VERSION 2

/* The pool of every wait, the last level of the hierarchical fallback. */
#define WS_WAIT_POOL_GLOBAL "*"

char     *ws_wait_signature_for_stack (WsStackTable *table,
                                       WsStackId     stack,
                                       guint         depth,
                                       char        **pool);
gboolean  ws_wait_frame_is_generic    (const char   *function);
const WsFrame *ws_wait_stack_function (WsStackTable *table,
                                       WsStackId     stack);
guint     ws_wait_history_depth       (guint         depth);
char     *ws_wait_history_key         (const char   *key);
char    **ws_wait_signature_split     (const char   *signature,
                                       char        **blocking);
char     *ws_wait_signature_to_display (const char  *signature);
gboolean  ws_wait_is_scored           (const WsEvent *event);

/*
 * WsWaitSignatures: the signature of every scored wait of one trace,
 * computed once per distinct waiting stack.
 */
#define WS_TYPE_WAIT_SIGNATURES (ws_wait_signatures_get_type ())
G_DECLARE_FINAL_TYPE (WsWaitSignatures, ws_wait_signatures, WS, WAIT_SIGNATURES, GObject)

WsWaitSignatures *ws_wait_signatures_new        (WsTrace          *trace,
                                                 guint             depth);
WsTrace          *ws_wait_signatures_get_trace  (WsWaitSignatures *self);
guint             ws_wait_signatures_get_depth  (WsWaitSignatures *self);
guint             ws_wait_signatures_get_n      (WsWaitSignatures *self);
const char       *ws_wait_signatures_get_key    (WsWaitSignatures *self,
                                                 guint             signature);
const char       *ws_wait_signatures_get_pool   (WsWaitSignatures *self,
                                                 guint             signature);
guint             ws_wait_signatures_lookup     (WsWaitSignatures *self,
                                                 const char       *key);
guint             ws_wait_signatures_of_event   (WsWaitSignatures *self,
                                                 guint             event);

G_END_DECLS
