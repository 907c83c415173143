/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gio/gio.h>

#include "ws-finding.h"

G_BEGIN_DECLS

/**
 * WsFindingList:
 *
 * The ordered findings of a session, a #GListModel of #WsFinding the GUI
 * binds its list to.  Every change made through it (add, remove, move,
 * edit) can be undone; "changed" fires after any change, including edits
 * of a finding's title or note made on the finding itself, so autosave has
 * one signal to watch.
 */
#define WS_TYPE_FINDING_LIST (ws_finding_list_get_type ())
G_DECLARE_FINAL_TYPE (WsFindingList, ws_finding_list, WS, FINDING_LIST, GObject)

WsFindingList *ws_finding_list_new        (void);
guint          ws_finding_list_get_n      (WsFindingList *self);
WsFinding     *ws_finding_list_get        (WsFindingList *self,
                                           guint          position);
guint          ws_finding_list_find       (WsFindingList *self,
                                           const char    *id);
void           ws_finding_list_append     (WsFindingList *self,
                                           WsFinding     *finding);
void           ws_finding_list_remove     (WsFindingList *self,
                                           guint          position);
void           ws_finding_list_move       (WsFindingList *self,
                                           guint          from,
                                           guint          to);
void           ws_finding_list_edit       (WsFindingList *self,
                                           guint          position,
                                           const char    *title,
                                           const char    *note);
void           ws_finding_list_clear      (WsFindingList *self);
void           ws_finding_list_clear_undo (WsFindingList *self);
gboolean       ws_finding_list_can_undo   (WsFindingList *self);
gboolean       ws_finding_list_undo       (WsFindingList *self);

G_END_DECLS
