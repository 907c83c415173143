/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gio/gio.h>

#include "ws-pin.h"

G_BEGIN_DECLS

/**
 * WsPinList:
 *
 * The ordered findings of a session, a #GListModel of #WsPin the GUI
 * binds its list to.  Every change made through it (add, remove, move,
 * edit) can be undone; "changed" fires after any change, including edits
 * of a finding's title or note made on the finding itself, so autosave has
 * one signal to watch.
 */
#define WS_TYPE_PIN_LIST (ws_pin_list_get_type ())
G_DECLARE_FINAL_TYPE (WsPinList, ws_pin_list, WS, PIN_LIST, GObject)

WsPinList *ws_pin_list_new        (void);
guint          ws_pin_list_get_n      (WsPinList *self);
WsPin     *ws_pin_list_get        (WsPinList *self,
                                           guint          position);
guint          ws_pin_list_find       (WsPinList *self,
                                           const char    *id);
void           ws_pin_list_append     (WsPinList *self,
                                           WsPin     *finding);
void           ws_pin_list_remove     (WsPinList *self,
                                           guint          position);
void           ws_pin_list_move       (WsPinList *self,
                                           guint          from,
                                           guint          to);
void           ws_pin_list_edit       (WsPinList *self,
                                           guint          position,
                                           const char    *title,
                                           const char    *note);
void           ws_pin_list_clear      (WsPinList *self);
void           ws_pin_list_clear_undo (WsPinList *self);
gboolean       ws_pin_list_can_undo   (WsPinList *self);
gboolean       ws_pin_list_undo       (WsPinList *self);

G_END_DECLS
