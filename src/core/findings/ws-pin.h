/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <json-glib/json-glib.h>

#include "ws-pin-kind-names.h"
#include "ws-trace.h"

G_BEGIN_DECLS

/* No thread / no event / no scenario instance. */
#define WS_PIN_NO_TID   G_MININT32
#define WS_PIN_NONE     (-1)

/**
 * WsPin:
 *
 * One pinned piece of evidence: which view of which trace(s), on which
 * thread and window, from which event, with which settings (chain metric,
 * lock-only…), plus a title and a note for the reader.  It holds what is
 * needed to redraw the view from the traces, never a bitmap, so figures
 * stay exact and vector in the report.  Traces are indices into the
 * session's trace list (#WsSessionFile).
 */
#define WS_TYPE_PIN (ws_pin_get_type ())
G_DECLARE_FINAL_TYPE (WsPin, ws_pin, WS, PIN, GObject)

WsPin   *ws_pin_new              (const char  *kind);
WsPin   *ws_pin_copy             (WsPin   *self);

const char  *ws_pin_get_id           (WsPin   *self);
const char  *ws_pin_get_kind         (WsPin   *self);
const char  *ws_pin_get_title        (WsPin   *self);
void         ws_pin_set_title        (WsPin   *self,
                                          const char  *title);
const char  *ws_pin_get_note         (WsPin   *self);
void         ws_pin_set_note         (WsPin   *self,
                                          const char  *note);
GDateTime   *ws_pin_get_created      (WsPin   *self);

guint        ws_pin_get_n_traces     (WsPin   *self);
guint        ws_pin_get_trace        (WsPin   *self,
                                          guint        i);
void         ws_pin_add_trace        (WsPin   *self,
                                          guint        trace);

gint32       ws_pin_get_tid          (WsPin   *self);
void         ws_pin_set_tid          (WsPin   *self,
                                          gint32       tid);
gboolean     ws_pin_get_window       (WsPin   *self,
                                          WsTime      *t0,
                                          WsTime      *t1);
void         ws_pin_set_window       (WsPin   *self,
                                          WsTime       t0,
                                          WsTime       t1);
gint64       ws_pin_get_event        (WsPin   *self);
void         ws_pin_set_event        (WsPin   *self,
                                          gint64       event);
gint64       ws_pin_get_scenario_instance (WsPin *self);
void         ws_pin_set_scenario_instance (WsPin *self,
                                          gint64       instance);

/* Settings of the view (chain_metric, lock_only, direction, scope…). */
JsonObject  *ws_pin_get_settings     (WsPin   *self);
const char  *ws_pin_get_setting_string  (WsPin  *self,
                                             const char *name,
                                             const char *fallback);
gint64       ws_pin_get_setting_int     (WsPin  *self,
                                             const char *name,
                                             gint64      fallback);
gboolean     ws_pin_get_setting_bool    (WsPin  *self,
                                             const char *name,
                                             gboolean    fallback);
void         ws_pin_set_setting_string  (WsPin  *self,
                                             const char *name,
                                             const char *value);
void         ws_pin_set_setting_int     (WsPin  *self,
                                             const char *name,
                                             gint64      value);
void         ws_pin_set_setting_bool    (WsPin  *self,
                                             const char *name,
                                             gboolean    value);

JsonNode    *ws_pin_to_json          (WsPin   *self);
/* Reading a pin is ws_pin_new_from_json() (ws-pin-read.h): with its
 * kind's check. */

G_END_DECLS
