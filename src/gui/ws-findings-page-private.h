/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "ws-findings-page.h"
#include "ws-worker.h"
#include "ws-trace-hasher.h"

G_BEGIN_DECLS

/* Shared by ws-findings-page.c (the list and its editor) and
 * ws-findings-page-async.c (pins waiting for their traces' hashes, the
 * questions asked of the user: a moved trace, unsaved findings). */
struct _WsFindingsPage
{
  WsPage         parent_instance;

  /* Widgets */
  GtkLabel      *message;
  GtkLabel      *session_label;
  GtkEntry      *session_title;   /* the report's cover title */
  GtkListBox    *list;
  GtkWidget     *editor;
  GtkEntry      *title_entry;
  GtkTextView   *note_view;

  /* Owned references (the session is the page's "session" property) */
  WsSessionFile *file;
  WsPin         *editing;   /* the pin the editor was loaded from */

  WsTraceHasher *hasher;
  GCancellable  *hashing;   /* the pins waiting for their trace's hash */
  GQueue         pending;   /* Pending*, in the order pinned */
  WsWorker      *trace_checker;  /* an opened session's traces, by content */
  WsWorker      *locator;        /* a file the user chose for a missing trace */

  guint          selected;
  guint          autosave_id;
  guint          commit_id;
  gboolean       updating_editor;
};

typedef void (*WsFindingsChosenFunc) (WsFindingsPage *self, GFile *file);

WsPinList *_ws_findings_page_pins              (WsFindingsPage       *self);
void       _ws_findings_page_set_message       (WsFindingsPage       *self,
                                                const char           *text);
void       _ws_findings_page_commit_edit       (WsFindingsPage       *self);
void       _ws_findings_page_choose_file       (WsFindingsPage       *self,
                                                const char           *title,
                                                GtkFileChooserAction  action,
                                                const char           *suggested,
                                                const char           *pattern,
                                                WsFindingsChosenFunc  func);
void       _ws_findings_page_emit_open_trace   (WsFindingsPage       *self,
                                                GFile                *file);
void       _ws_findings_page_emit_restore_view_state (WsFindingsPage *self);
void       _ws_findings_page_open_traces       (WsFindingsPage       *self);
void       _ws_findings_page_cancel_pending    (WsFindingsPage       *self);
void       _ws_findings_page_ask_next_missing  (WsFindingsPage       *self);

G_END_DECLS
