/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <json-glib/json-glib.h>

#include "ws-finding-kind.h"
#include "ws-trace.h"

G_BEGIN_DECLS

/* No thread / no event / no scenario instance. */
#define WS_FINDING_NO_TID   G_MININT32
#define WS_FINDING_NONE     (-1)

/**
 * WsFinding:
 *
 * One pinned piece of evidence: which view of which trace(s), on which
 * thread and window, from which event, with which settings (chain metric,
 * lock-only…), plus a title and a note for the reader.  It holds what is
 * needed to redraw the view from the traces, never a bitmap, so figures
 * stay exact and vector in the report.  Traces are indices into the
 * session's trace list (#WsSessionFile).
 */
#define WS_TYPE_FINDING (ws_finding_get_type ())
G_DECLARE_FINAL_TYPE (WsFinding, ws_finding, WS, FINDING, GObject)

WsFinding   *ws_finding_new              (const char  *kind);
WsFinding   *ws_finding_copy             (WsFinding   *self);

const char  *ws_finding_get_id           (WsFinding   *self);
const char  *ws_finding_get_kind         (WsFinding   *self);
const char  *ws_finding_get_title        (WsFinding   *self);
void         ws_finding_set_title        (WsFinding   *self,
                                          const char  *title);
const char  *ws_finding_get_note         (WsFinding   *self);
void         ws_finding_set_note         (WsFinding   *self,
                                          const char  *note);
GDateTime   *ws_finding_get_created      (WsFinding   *self);

guint        ws_finding_get_n_traces     (WsFinding   *self);
guint        ws_finding_get_trace        (WsFinding   *self,
                                          guint        i);
void         ws_finding_add_trace        (WsFinding   *self,
                                          guint        trace);

gint32       ws_finding_get_tid          (WsFinding   *self);
void         ws_finding_set_tid          (WsFinding   *self,
                                          gint32       tid);
gboolean     ws_finding_get_window       (WsFinding   *self,
                                          WsTime      *t0,
                                          WsTime      *t1);
void         ws_finding_set_window       (WsFinding   *self,
                                          WsTime       t0,
                                          WsTime       t1);
gint64       ws_finding_get_event        (WsFinding   *self);
void         ws_finding_set_event        (WsFinding   *self,
                                          gint64       event);
gint64       ws_finding_get_scenario_instance (WsFinding *self);
void         ws_finding_set_scenario_instance (WsFinding *self,
                                          gint64       instance);

/* Settings of the view (chain_metric, lock_only, direction, scope…). */
JsonObject  *ws_finding_get_settings     (WsFinding   *self);
const char  *ws_finding_get_setting_string  (WsFinding  *self,
                                             const char *name,
                                             const char *fallback);
gint64       ws_finding_get_setting_int     (WsFinding  *self,
                                             const char *name,
                                             gint64      fallback);
gboolean     ws_finding_get_setting_bool    (WsFinding  *self,
                                             const char *name,
                                             gboolean    fallback);
void         ws_finding_set_setting_string  (WsFinding  *self,
                                             const char *name,
                                             const char *value);
void         ws_finding_set_setting_int     (WsFinding  *self,
                                             const char *name,
                                             gint64      value);
void         ws_finding_set_setting_bool    (WsFinding  *self,
                                             const char *name,
                                             gboolean    value);

JsonNode    *ws_finding_to_json          (WsFinding   *self);
WsFinding   *ws_finding_new_from_json    (JsonNode    *node,
                                          guint        n_traces,
                                          GError     **error);

G_END_DECLS
