/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

/*
 * What the session file's tests share: a temporary folder for a test's
 * files, a session's text written there, and that text read back by the
 * session reader.  The texts are made by the tests: damaged, hostile or
 * hand-written files the reader must refuse or take.
 */
#include "ws-session-file.h"

G_BEGIN_DECLS

/* A new folder under the temporary one, named after @prefix. */
char          *ws_session_test_make_dir   (const char  *prefix);
/* Removes @dir with every file and folder in it (a test's files, and the
 * recovery copies and saves the code under test wrote there). */
void           ws_session_test_remove_dir (const char  *dir);
/* @text (@len bytes; -1: up to its end) written as @dir/@name.
 * Returns: its path */
char          *ws_session_test_write      (const char  *dir,
                                           const char  *name,
                                           const char  *text,
                                           gssize       len);
/* @text written as @dir/@name and read back (ws_session_file_load()).
 * Returns: the session, or %NULL with @error */
WsSessionFile *ws_session_test_load_text  (const char  *dir,
                                           const char  *name,
                                           const char  *text,
                                           gssize       len,
                                           GError     **error);
/* @data, a session's text (one JSON object, as written), with @member
 * ("\"name\": value") added as its last member. */
char          *ws_session_test_add_member (const char  *data,
                                           const char  *member);

G_END_DECLS
