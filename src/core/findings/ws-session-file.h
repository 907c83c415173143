/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gio/gio.h>
#include <json-glib/json-glib.h>

#include "ws-pin-list.h"
#include "ws-session-trace-check.h"
#include "ws-trace-classes.h"

G_BEGIN_DECLS

/* The newest version this build writes; it reads every version up to it.
 * Version 2 added the traces' classes (`trace_classes`) and mining pins
 * ranked by them; a document without either is still written as 1. */
#define WS_SESSION_FILE_VERSION 2
#define WS_SESSION_FILE_FORMAT  "waitscope-session"

/**
 * WsSessionFile:
 *
 * A saved investigation (`.waitscope`): the traces by path and content
 * hash, the findings, the view state and the chosen settings.  Not the
 * GUI's live session: that one owns this and the open documents.  See
 * docs/session-format.md.
 */
#define WS_TYPE_SESSION_FILE (ws_session_file_get_type ())
G_DECLARE_FINAL_TYPE (WsSessionFile, ws_session_file, WS, SESSION_FILE, GObject)

WsSessionFile        *ws_session_file_new              (void);
WsSessionFile        *ws_session_file_load             (const char     *path,
                                                        GError        **error);
gboolean              ws_session_file_save             (WsSessionFile  *self,
                                                        const char     *path,
                                                        GError        **error);
char                 *ws_session_file_to_data          (WsSessionFile  *self);

const char           *ws_session_file_get_path         (WsSessionFile  *self);
const char           *ws_session_file_get_title        (WsSessionFile  *self);
void                  ws_session_file_set_title        (WsSessionFile  *self,
                                                        const char     *title);
WsPinList        *ws_session_file_get_findings     (WsSessionFile  *self);
JsonObject           *ws_session_file_get_view_state   (WsSessionFile  *self);
JsonObject           *ws_session_file_get_settings     (WsSessionFile  *self);
gboolean              ws_session_file_get_dirty        (WsSessionFile  *self);
void                  ws_session_file_set_dirty        (WsSessionFile  *self,
                                                        gboolean        dirty);

guint                 ws_session_file_get_n_traces     (WsSessionFile  *self);
const WsSessionTrace *ws_session_file_get_trace        (WsSessionFile  *self,
                                                        guint           index);
guint                 ws_session_file_find_trace       (WsSessionFile  *self,
                                                        const char     *path);
gboolean              ws_session_file_add_trace        (WsSessionFile  *self,
                                                        const char     *path,
                                                        const char     *name,
                                                        guint          *index,
                                                        GError        **error);
void                  ws_session_file_add_trace_hashed (WsSessionFile  *self,
                                                        const char     *path,
                                                        const char     *name,
                                                        const char     *sha256,
                                                        gint64          size,
                                                        guint          *index);
gboolean              ws_session_file_resolve_trace    (WsSessionFile  *self,
                                                        guint           index,
                                                        gboolean       *relocated,
                                                        GError        **error);
void                  ws_session_file_set_trace_found  (WsSessionFile  *self,
                                                        guint           index,
                                                        const char     *found,
                                                        gboolean       *relocated);
gboolean              ws_session_file_get_trace_class  (WsSessionFile  *self,
                                                        guint           index,
                                                        WsRunClass     *klass);
void                  ws_session_file_set_trace_class  (WsSessionFile  *self,
                                                        guint           index,
                                                        gboolean        given,
                                                        WsRunClass      klass);
gboolean              ws_session_file_relocate_trace   (WsSessionFile  *self,
                                                        guint           index,
                                                        const char     *new_path,
                                                        GError        **error);

char                 *ws_session_file_hash_file        (const char     *path,
                                                        gint64         *size,
                                                        GError        **error);
char                 *ws_session_file_hash_file_full   (const char     *path,
                                                        gint64         *size,
                                                        GCancellable   *cancellable,
                                                        GError        **error);

/* Autosave: a recovery copy outside the user's file, removed on save. */
const char           *ws_session_file_get_recovery_path (WsSessionFile *self);
gboolean              ws_session_file_save_recovery    (WsSessionFile  *self,
                                                        GError        **error);
void                  ws_session_file_discard_recovery (WsSessionFile  *self);
char                 *ws_session_file_get_recovery_dir (void);
GPtrArray            *ws_session_file_list_recoveries  (void);
gboolean              ws_session_file_is_recovery      (WsSessionFile  *self);

G_END_DECLS
