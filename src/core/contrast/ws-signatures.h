/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib-object.h>

#include "ws-trace.h"

G_BEGIN_DECLS

/*
 * WsSignatures: the ASPLOS'14 *signature* of an event for a chosen set of
 * components — the topmost component frame of its call stack.  Our stacks
 * are caller first, so "topmost" is the leaf-most frame whose
 * "function (module)" text matches the component regex.  Frames perf could
 * not name ("[unknown]") carry no signature and are skipped.  With @widen
 * a signature is "function ← caller" (the nearest named frame below it), for
 * a leaf function such as a latch wait that hides several callers.
 *
 * Signatures are interned by name across traces (the ids index this
 * object), so that instances of many traces aggregate into one graph.
 * Hardware services get dummy signatures, as in the paper: DiskService,
 * TimerService, InterruptService.  Not thread-safe: one analysis at a time.
 */
typedef guint32 WsSigId;
#define WS_SIG_NONE G_MAXUINT32

#define WS_TYPE_SIGNATURES (ws_signatures_get_type ())
G_DECLARE_FINAL_TYPE (WsSignatures, ws_signatures, WS, SIGNATURES, GObject)

WsSignatures *ws_signatures_new              (const char    *component_regex,
                                              gboolean       widen,
                                              GError       **error);
const char   *ws_signatures_get_component    (WsSignatures  *self);
gboolean      ws_signatures_get_widen        (WsSignatures  *self);

WsSigId       ws_signatures_intern           (WsSignatures  *self,
                                              const char    *name);
const char   *ws_signatures_get_name         (WsSignatures  *self,
                                              WsSigId        sig);
guint         ws_signatures_get_n            (WsSignatures  *self);

/* Whether any frame of @stack belongs to the components (Alg. 1 line 6). */
gboolean      ws_signatures_stack_is_relevant (WsSignatures *self,
                                              WsTrace       *trace,
                                              WsStackId      stack);
/* The signature of @stack, or %WS_SIG_NONE. */
WsSigId       ws_signatures_of_stack         (WsSignatures  *self,
                                              WsTrace       *trace,
                                              WsStackId      stack);
/* The dummy signature of a hardware service: DiskService for block I/O
 * (interrupt stack, or the waiting stack of an uninterruptible wait),
 * TimerService for timers, else InterruptService. */
WsSigId       ws_signatures_of_hardware      (WsSignatures  *self,
                                              WsTrace       *trace,
                                              WsStackId      stack,
                                              gboolean       timer);
/* The same over any stack table (a digest's has no trace). */
gboolean      ws_signatures_stack_is_relevant_in (WsSignatures *self,
                                              WsStackTable  *stacks,
                                              WsStackId      stack);
WsSigId       ws_signatures_of_stack_in      (WsSignatures  *self,
                                              WsStackTable  *stacks,
                                              WsStackId      stack);
WsSigId       ws_signatures_of_hardware_in   (WsSignatures  *self,
                                              WsStackTable  *stacks,
                                              WsStackId     stack,
                                              gboolean       timer);

G_END_DECLS
