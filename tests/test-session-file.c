/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The .waitscope session file: round trip, a v1 file read by this reader,
 * relocation of a moved trace and refusal of a different one, atomic
 * saves, clear errors on damaged files, the findings list's undo, the
 * autosave recovery copy, and the traces' classes with the mining pins
 * made with them (version 2).
 */
#include "config.h"

#include <glib/gstdio.h>
#include <string.h>
#include <sys/stat.h>

#include "ws-error.h"
#include "ws-pin-flame.h"
#include "ws-pin-kind.h"
#include "ws-pin-mining.h"
#include "ws-session-file.h"
#include "ws-session-test-util.h"

static char *
data_path (const char *name)
{
  return g_build_filename (g_getenv ("WS_TEST_DATA"), name, NULL);
}

static WsSessionFile *
make_session (guint *trace_index)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *trace = data_path ("py-locks.perf.txt.gz");
  WsSessionFile *session = ws_session_file_new ();
  g_autoptr(WsPin) tl = ws_pin_new (WS_PIN_KIND_TIMELINE);
  g_autoptr(WsPin) rt = ws_pin_new (WS_PIN_KIND_READY_TREE);

  g_assert_true (ws_session_file_add_trace (session, trace, "py-locks", trace_index, &error));
  g_assert_no_error (error);
  ws_session_file_set_title (session, "Review");

  ws_pin_add_trace (tl, *trace_index);
  ws_pin_set_tid (tl, 11588);
  ws_pin_set_window (tl, 1987000000000, 1987050000000);
  ws_pin_set_title (tl, "Timeline “window”");
  ws_pin_set_note (tl, "Line one\n**bold** and *em* — ünïcode");
  ws_pin_list_append (ws_session_file_get_findings (session), tl);

  ws_pin_add_trace (rt, *trace_index);
  ws_pin_set_tid (rt, 11588);
  ws_pin_set_window (rt, 1987000000000, 1988000000000);
  ws_pin_set_event (rt, 1234);
  ws_pin_set_setting_string (rt, "chain_metric", "max");
  ws_pin_set_setting_bool (rt, "lock_only", TRUE);
  ws_pin_set_setting_int (rt, "max_depth", 12);
  ws_pin_list_append (ws_session_file_get_findings (session), rt);

  json_object_set_string_member (ws_session_file_get_view_state (session), "page", "graph");
  return session;
}

static void
test_round_trip (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = ws_session_test_make_dir ("ws-session");
  g_autofree char *path = g_build_filename (dir, "review.waitscope", NULL);
  g_autoptr(WsSessionFile) session = NULL;
  g_autoptr(WsSessionFile) back = NULL;
  WsPin *f;
  WsTime t0, t1;
  guint ti;

  session = make_session (&ti);
  g_assert_true (ws_session_file_get_dirty (session));
  g_assert_true (ws_session_file_save (session, path, &error));
  g_assert_no_error (error);
  g_assert_false (ws_session_file_get_dirty (session));

  back = ws_session_file_load (path, &error);
  g_assert_no_error (error);
  g_assert_false (ws_session_file_get_dirty (back));
  g_assert_cmpstr (ws_session_file_get_title (back), ==, "Review");
  g_assert_cmpuint (ws_session_file_get_n_traces (back), ==, 1);
  g_assert_cmpstr (ws_session_file_get_trace (back, 0)->sha256, ==,
                   "90523eb9f516d580e4902bd00f7041f3cc554194e14789dea7fa65dcd5ad04d9");
  g_assert_cmpint (ws_session_file_get_trace (back, 0)->size, ==, 169740);
  g_assert_cmpuint (ws_pin_list_get_n (ws_session_file_get_findings (back)), ==, 2);
  g_assert_false (ws_pin_list_can_undo (ws_session_file_get_findings (back)));

  f = ws_pin_list_get (ws_session_file_get_findings (back), 0);
  g_assert_cmpstr (ws_pin_get_kind (f), ==, "timeline");
  g_assert_cmpstr (ws_pin_get_title (f), ==, "Timeline “window”");
  g_assert_cmpstr (ws_pin_get_note (f), ==, "Line one\n**bold** and *em* — ünïcode");
  g_assert_cmpint (ws_pin_get_tid (f), ==, 11588);
  g_assert_true (ws_pin_get_window (f, &t0, &t1));
  g_assert_cmpint (t0, ==, 1987000000000);
  g_assert_cmpint (t1, ==, 1987050000000);
  g_assert_cmpint (ws_pin_get_event (f), ==, WS_PIN_NONE);

  f = ws_pin_list_get (ws_session_file_get_findings (back), 1);
  g_assert_cmpstr (ws_pin_get_id (f), ==,
                   ws_pin_get_id (ws_pin_list_get (ws_session_file_get_findings (session), 1)));
  g_assert_cmpint (ws_pin_get_event (f), ==, 1234);
  g_assert_cmpstr (ws_pin_get_setting_string (f, "chain_metric", NULL), ==, "max");
  g_assert_true (ws_pin_get_setting_bool (f, "lock_only", FALSE));
  g_assert_cmpint (ws_pin_get_setting_int (f, "max_depth", 0), ==, 12);
  g_assert_cmpstr (json_object_get_string_member (ws_session_file_get_view_state (back), "page"), ==, "graph");

  ws_session_test_remove_dir (dir);
}

/* A file written by version 1 (committed, hand-checked) read by this
 * reader; its trace moved, found again by its relative path. */
static void
test_version_1 (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *path = data_path ("session-v1.waitscope");
  g_autoptr(WsSessionFile) session = ws_session_file_load (path, &error);
  g_autofree char *expected = data_path ("py-locks.perf.txt.gz");
  g_autofree char *expected_canon = g_canonicalize_filename (expected, NULL);
  gboolean relocated = FALSE;
  WsPin *f;

  g_assert_no_error (error);
  g_assert_cmpstr (ws_session_file_get_title (session), ==, "py-locks: who holds the lock");
  g_assert_cmpuint (ws_pin_list_get_n (ws_session_file_get_findings (session)), ==, 2);
  f = ws_pin_list_get (ws_session_file_get_findings (session), 1);
  g_assert_cmpstr (ws_pin_get_kind (f), ==, WS_PIN_KIND_READY_TREE);
  g_assert_cmpstr (ws_pin_get_setting_string (f, "chain_metric", NULL), ==, "max");
  g_assert_nonnull (ws_pin_kind_lookup (ws_pin_get_kind (f)));

  g_assert_true (ws_session_file_resolve_trace (session, 0, &relocated, &error));
  g_assert_no_error (error);
  g_assert_true (relocated);
  g_assert_cmpstr (ws_session_file_get_trace (session, 0)->path, ==, expected_canon);
  g_assert_true (ws_session_file_get_dirty (session));
}

/* Each damaged file: an error naming the file and what is wrong. */
static void
expect_error (const char *dir,
              const char *text,
              gssize      len,
              int         code,
              const char *words)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *path = g_build_filename (dir, "bad.waitscope", NULL);
  g_autoptr(WsSessionFile) session = NULL;

  session = ws_session_test_load_text (dir, "bad.waitscope", text, len, &error);
  g_assert_null (session);
  g_assert_error (error, WS_ERROR, code);
  g_test_message ("%s", error->message);
  g_assert_nonnull (strstr (error->message, path));
  g_assert_nonnull (strstr (error->message, words));
  g_unlink (path);
}

static void
test_damaged (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = ws_session_test_make_dir ("ws-session");
  g_autofree char *good = g_build_filename (dir, "good.waitscope", NULL);
  g_autoptr(WsSessionFile) session = NULL;
  g_autoptr(WsSessionFile) again = NULL;
  g_autofree char *text = NULL;
  gsize len;
  guint ti;

  session = make_session (&ti);
  g_assert_true (ws_session_file_save (session, good, &error));
  g_assert_true (g_file_get_contents (good, &text, &len, NULL));

  /* Truncated half way: the JSON parser's line and column. */
  expect_error (dir, text, len / 2, WS_ERROR_PARSE, "truncated");
  expect_error (dir, "", 0, WS_ERROR_EMPTY, "empty");
  expect_error (dir, "\x89PNG\r\n\x1a\n\0\0", 10, WS_ERROR_BINARY, "UTF-8");
  expect_error (dir, "[1, 2]", -1, WS_ERROR_INVALID, "not a JSON object");
  expect_error (dir, "{\"format\": \"other\", \"version\": 1}", -1, WS_ERROR_INVALID, "format");
  expect_error (dir, "{\"format\": \"waitscope-session\"}", -1, WS_ERROR_INVALID, "version");
  expect_error (dir, "{\"format\": \"waitscope-session\", \"version\": 99, \"traces\": [], \"findings\": []}",
                -1, WS_ERROR_INVALID, "newer Waitscope");
  expect_error (dir, "{\"format\": \"waitscope-session\", \"version\": 1, \"traces\": [{\"path\": \"/x\"}], "
                "\"findings\": []}", -1, WS_ERROR_INVALID, "trace 0 has no valid “sha256”");
  expect_error (dir, "{\"format\": \"waitscope-session\", \"version\": 1, \"traces\": [], "
                "\"findings\": [{\"view\": \"timeline\", \"traces\": [3]}]}",
                -1, WS_ERROR_INVALID, "finding 0: trace index 3 is out of range");
  expect_error (dir, "{\"format\": \"waitscope-session\", \"version\": 1, \"traces\": [], "
                "\"findings\": [{\"view\": \"timeline\", \"traces\": [], \"window\": {\"from_ns\": 5, \"to_ns\": 1}}]}",
                -1, WS_ERROR_INVALID, "finding 0: the window ends before it starts");

  /* The good session is untouched by all that. */
  again = ws_session_file_load (good, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (ws_pin_list_get_n (ws_session_file_get_findings (again)), ==, 2);
  ws_session_test_remove_dir (dir);
}

/* Saving replaces the file by rename (a new inode), leaves no temporary
 * file, and a failed save leaves the previous session whole. */
static void
test_atomic_save (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = ws_session_test_make_dir ("ws-session");
  g_autofree char *path = g_build_filename (dir, "s.waitscope", NULL);
  g_autofree char *blocker = g_build_filename (dir, "blocked", NULL);
  g_autofree char *inside = g_build_filename (blocker, "s.waitscope", NULL);
  g_autoptr(WsSessionFile) session = NULL;
  g_autoptr(WsSessionFile) back = NULL;
  g_autoptr(GDir) listing = NULL;
  GStatBuf before, after;
  guint ti, n_files = 0;

  session = make_session (&ti);
  g_assert_true (ws_session_file_save (session, path, &error));
  g_assert_cmpint (g_stat (path, &before), ==, 0);
  ws_pin_list_remove (ws_session_file_get_findings (session), 0);
  g_assert_true (ws_session_file_save (session, NULL, &error));
  g_assert_no_error (error);
  g_assert_cmpint (g_stat (path, &after), ==, 0);
  g_assert_cmpuint (before.st_ino, !=, after.st_ino);

  listing = g_dir_open (dir, 0, NULL);
  while (g_dir_read_name (listing) != NULL)
    n_files++;
  g_assert_cmpuint (n_files, ==, 1);

  /* A save that cannot happen (its folder is a file) fails with the name. */
  g_free (ws_session_test_write (dir, "blocked", "x", -1));
  g_assert_false (ws_session_file_save (session, inside, &error));
  g_assert_error (error, WS_ERROR, WS_ERROR_IO);
  g_assert_nonnull (strstr (error->message, inside));
  g_clear_error (&error);
  g_assert_cmpstr (ws_session_file_get_path (session), !=, inside);

  back = ws_session_file_load (path, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (ws_pin_list_get_n (ws_session_file_get_findings (back)), ==, 1);
  ws_session_test_remove_dir (dir);
}

static void
test_different_trace (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *other = data_path ("io-fsync.perf.txt.gz");
  g_autofree char *same = data_path ("py-locks.perf.txt.gz");
  g_autofree char *dir = ws_session_test_make_dir ("ws-session");
  g_autofree char *copy = g_build_filename (dir, "py-locks.perf.txt.gz", NULL);
  g_autofree char *bytes = NULL;
  g_autoptr(WsSessionFile) session = NULL;
  gsize len;
  guint ti;

  session = make_session (&ti);
  g_assert_false (ws_session_file_relocate_trace (session, ti, other, &error));
  g_assert_error (error, WS_ERROR, WS_ERROR_INVALID);
  g_assert_nonnull (strstr (error->message, other));
  g_assert_nonnull (strstr (error->message, "content differs"));
  g_clear_error (&error);

  /* A copy with the same bytes is accepted. */
  g_assert_true (g_file_get_contents (same, &bytes, &len, NULL));
  g_free (ws_session_test_write (dir, "py-locks.perf.txt.gz", bytes, len));
  g_assert_true (ws_session_file_relocate_trace (session, ti, copy, &error));
  g_assert_no_error (error);
  g_assert_true (ws_session_file_resolve_trace (session, ti, NULL, &error));

  /* …and refused once its content changes under the same name. */
  g_free (ws_session_test_write (dir, "py-locks.perf.txt.gz", "not the trace", -1));
  g_assert_false (ws_session_file_resolve_trace (session, ti, NULL, &error));
  g_assert_error (error, WS_ERROR, WS_ERROR_INVALID);
  g_assert_nonnull (strstr (error->message, copy));
  g_clear_error (&error);

  /* Gone, and nowhere beside the (unsaved) session: missing. */
  g_unlink (copy);
  g_assert_false (ws_session_file_resolve_trace (session, ti, NULL, &error));
  g_assert_error (error, WS_ERROR, WS_ERROR_IO);
  g_assert_nonnull (strstr (error->message, "relocate"));
  ws_session_test_remove_dir (dir);
}

static void
count_change (guint *changes)
{
  (*changes)++;
}

static const char *
title_at (WsPinList *list,
          guint          i)
{
  return ws_pin_get_title (ws_pin_list_get (list, i));
}

static void
test_undo (void)
{
  g_autoptr(WsPinList) list = ws_pin_list_new ();
  g_autoptr(WsPin) a = ws_pin_new (WS_PIN_KIND_TIMELINE);
  g_autoptr(WsPin) b = ws_pin_new (WS_PIN_KIND_WAIT_GRAPH);
  g_autoptr(WsPin) c = ws_pin_new (WS_PIN_KIND_CRITICAL_PATH);
  guint changes = 0;

  g_signal_connect_swapped (list, "changed", G_CALLBACK (count_change), &changes);
  ws_pin_set_title (a, "A");
  ws_pin_set_title (b, "B");
  ws_pin_set_title (c, "C");
  ws_pin_list_append (list, a);
  ws_pin_list_append (list, b);
  ws_pin_list_append (list, c);
  g_assert_cmpuint (changes, ==, 3);
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (list)), ==, 3);

  ws_pin_list_move (list, 2, 0);
  g_assert_cmpstr (title_at (list, 0), ==, "C");
  g_assert_cmpstr (title_at (list, 1), ==, "A");
  ws_pin_list_edit (list, 1, "A2", "note");
  g_assert_cmpstr (title_at (list, 1), ==, "A2");
  /* Editing the finding itself still tells autosave. */
  changes = 0;
  ws_pin_set_note (ws_pin_list_get (list, 0), "direct");
  g_assert_cmpuint (changes, ==, 1);
  ws_pin_list_remove (list, 2);
  g_assert_cmpuint (ws_pin_list_get_n (list), ==, 2);

  g_assert_true (ws_pin_list_undo (list));   /* the remove */
  g_assert_cmpuint (ws_pin_list_get_n (list), ==, 3);
  g_assert_cmpstr (title_at (list, 2), ==, "B");
  g_assert_true (ws_pin_list_undo (list));   /* the edit */
  g_assert_cmpstr (title_at (list, 1), ==, "A");
  g_assert_cmpstr (ws_pin_get_note (ws_pin_list_get (list, 1)), ==, "");
  g_assert_true (ws_pin_list_undo (list));   /* the move */
  g_assert_cmpstr (title_at (list, 0), ==, "A");
  g_assert_cmpstr (title_at (list, 2), ==, "C");
  g_assert_cmpuint (ws_pin_list_find (list, ws_pin_get_id (c)), ==, 2);
  while (ws_pin_list_undo (list))
    ;
  g_assert_cmpuint (ws_pin_list_get_n (list), ==, 0);
  g_assert_false (ws_pin_list_can_undo (list));
}

/* Autosave: the recovery copy stands for the session's own file, is found
 * after a crash, reopens dirty and disappears once saved. */
static void
test_recovery (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = ws_session_test_make_dir ("ws-session");
  g_autofree char *rdir = g_build_filename (dir, "recovery", NULL);
  g_autofree char *path = g_build_filename (dir, "mine.waitscope", NULL);
  g_autoptr(WsSessionFile) session = NULL;
  g_autoptr(WsSessionFile) recovered = NULL;
  g_autoptr(GPtrArray) found = NULL;
  g_autoptr(GPtrArray) after = NULL;
  g_autoptr(WsPin) extra = ws_pin_new (WS_PIN_KIND_WAIT_GRAPH);
  guint ti;

  g_setenv ("WAITSCOPE_RECOVERY_DIR", rdir, TRUE);
  session = make_session (&ti);
  g_assert_true (ws_session_file_save (session, path, &error));
  ws_pin_set_title (extra, "added after the save");
  ws_pin_list_append (ws_session_file_get_findings (session), extra);
  g_assert_true (ws_session_file_save_recovery (session, &error));
  g_assert_no_error (error);
  g_assert_true (ws_session_file_get_dirty (session));

  /* "Crash": the session object is simply dropped. */
  found = ws_session_file_list_recoveries ();
  g_assert_cmpuint (found->len, ==, 1);
  recovered = ws_session_file_load (g_ptr_array_index (found, 0), &error);
  g_assert_no_error (error);
  g_assert_true (ws_session_file_is_recovery (recovered));
  g_assert_true (ws_session_file_get_dirty (recovered));
  g_assert_cmpstr (ws_session_file_get_path (recovered), ==, path);
  g_assert_cmpuint (ws_pin_list_get_n (ws_session_file_get_findings (recovered)), ==, 3);

  g_assert_true (ws_session_file_save (recovered, NULL, &error));
  g_assert_no_error (error);
  after = ws_session_file_list_recoveries ();
  g_assert_cmpuint (after->len, ==, 0);
  g_clear_object (&session);   /* its copy is the one just consumed */

  ws_session_test_remove_dir (dir);
  g_unsetenv ("WAITSCOPE_RECOVERY_DIR");
}

/* A session from someone else that claims to be a recovery copy of the
 * user's ~/.bashrc: saving it writes the file that was opened, never the
 * path inside it, and the opened file is still there afterwards. */
static void
test_untrusted_recovery (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = ws_session_test_make_dir ("ws-session");
  g_autofree char *rdir = g_build_filename (dir, "recovery", NULL);
  g_autofree char *victim = g_build_filename (dir, "bashrc", NULL);
  g_autofree char *path = g_build_filename (dir, "from-a-colleague.waitscope", NULL);
  g_autofree char *data = NULL;
  g_autofree char *member = NULL;
  g_autofree char *text = NULL;
  g_autofree char *victim_after = NULL;
  g_autoptr(WsSessionFile) session = NULL;
  g_autoptr(WsSessionFile) opened = NULL;
  guint ti;

  g_setenv ("WAITSCOPE_RECOVERY_DIR", rdir, TRUE);
  g_assert_true (g_file_set_contents (victim, "echo hello\n", -1, &error));
  session = make_session (&ti);
  data = ws_session_file_to_data (session);
  /* The hostile member, as the review's reproducer wrote it. */
  member = g_strdup_printf ("\"recovery\": {\"original_path\": \"%s\"}", victim);
  text = ws_session_test_add_member (data, member);
  opened = ws_session_test_load_text (dir, "from-a-colleague.waitscope", text, -1, &error);
  g_assert_no_error (error);
  g_assert_false (ws_session_file_is_recovery (opened));
  g_assert_cmpstr (ws_session_file_get_path (opened), ==, path);
  g_assert_true (ws_session_file_save (opened, NULL, &error));
  g_assert_no_error (error);

  g_assert_true (g_file_get_contents (victim, &victim_after, NULL, &error));
  g_assert_cmpstr (victim_after, ==, "echo hello\n");
  g_assert_true (g_file_test (path, G_FILE_TEST_IS_REGULAR));

  ws_session_test_remove_dir (dir);
  g_unsetenv ("WAITSCOPE_RECOVERY_DIR");
}

/* Even a copy in the recovery folder goes back only to a session file. */
static void
test_recovery_original_not_session (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = ws_session_test_make_dir ("ws-session");
  g_autofree char *rdir = g_build_filename (dir, "recovery", NULL);
  g_autofree char *data = NULL;
  g_autofree char *text = NULL;
  g_autoptr(WsSessionFile) session = NULL;
  g_autoptr(WsSessionFile) opened = NULL;
  guint ti;

  g_setenv ("WAITSCOPE_RECOVERY_DIR", rdir, TRUE);
  g_assert_cmpint (g_mkdir_with_parents (rdir, 0700), ==, 0);
  session = make_session (&ti);
  data = ws_session_file_to_data (session);
  text = ws_session_test_add_member (data, "\"recovery\": {\"original_path\": \"/home/someone/.bashrc\"}");
  opened = ws_session_test_load_text (rdir, "planted.waitscope", text, -1, &error);
  g_assert_no_error (error);
  g_assert_true (ws_session_file_is_recovery (opened));
  g_assert_null (ws_session_file_get_path (opened));

  ws_session_test_remove_dir (dir);
  g_unsetenv ("WAITSCOPE_RECOVERY_DIR");
}

/* json-glib recurses per level: a deep document is refused before it. */
static void
test_deep_nesting (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = ws_session_test_make_dir ("ws-session");
  g_autofree char *path = g_build_filename (dir, "deep.waitscope", NULL);
  g_autoptr(GString) text = g_string_new ("{\"format\": \"waitscope-session\", \"version\": 1, \"x\": ");
  g_autoptr(WsSessionFile) opened = NULL;

  for (int i = 0; i < 100000; i++)
    g_string_append_c (text, '[');
  for (int i = 0; i < 100000; i++)
    g_string_append_c (text, ']');
  g_string_append_c (text, '}');
  opened = ws_session_test_load_text (dir, "deep.waitscope", text->str, text->len, &error);
  g_assert_null (opened);
  g_assert_error (error, WS_ERROR, WS_ERROR_INVALID);
  g_assert_nonnull (strstr (error->message, path));
  g_assert_nonnull (strstr (error->message, "256"));
  ws_session_test_remove_dir (dir);
}

/* A session naming a FIFO or /dev/zero as its trace: refused at once,
 * never read (reading would block or never end). */
static void
test_non_regular_trace (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = ws_session_test_make_dir ("ws-session");
  g_autofree char *fifo = g_build_filename (dir, "fifo", NULL);
  g_autoptr(WsSessionFile) session = NULL;
  const WsSessionTrace *t;
  guint ti;

  session = make_session (&ti);
  t = ws_session_file_get_trace (session, ti);
  g_assert_cmpint (mkfifo (fifo, 0600), ==, 0);
  g_assert_false (ws_session_file_relocate_trace (session, ti, fifo, &error));
  g_assert_error (error, WS_ERROR, WS_ERROR_INVALID);
  g_clear_error (&error);
  g_assert_false (ws_session_file_relocate_trace (session, ti, "/dev/zero", &error));
  g_assert_error (error, WS_ERROR, WS_ERROR_INVALID);
  g_clear_error (&error);
  g_assert_null (ws_session_file_hash_file (fifo, NULL, &error));
  g_assert_error (error, WS_ERROR, WS_ERROR_INVALID);
  g_assert_nonnull (t);
  ws_session_test_remove_dir (dir);
}

/* A flame graph pin with every setting through a file and back; the same
 * file with one setting spoiled at a time is refused, naming the finding
 * and the setting. */
static void
test_flame_pin (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = ws_session_test_make_dir ("ws-session");
  g_autofree char *path = g_build_filename (dir, "flame.waitscope", NULL);
  g_autoptr(WsSessionFile) session = NULL;
  g_autoptr(WsSessionFile) back = NULL;
  g_autoptr(WsPin) pin = ws_pin_new (WS_PIN_KIND_FLAME);
  g_autofree char *text = NULL;
  char *zoom[] = { "pylk-w0", "__futex_abstimed_wait_common", "entry_SYSCALL_64_after_hwframe", NULL };
  WsPinFlame flame = { WS_FLAME_OFF_WAKE, WS_FLAME_SCOPE_THREAD, zoom, "futex|lock", TRUE }, read;
  static const struct { const char *member, *json, *words; } spoiled[] = {
    { "mode", "\"sideways\"", "“mode” must be “on-cpu”, “off-cpu” or “off-wake”" },
    { "mode", "3", "“mode” must be" },
    { "scope", "\"process\"", "“scope” must be “trace”, “window” or “thread”" },
    { "zoom", "\"pylk-w0;futex\"", "“zoom” must be an array of frame names" },
    { "zoom", "[\"pylk-w0\", 7]", "“zoom” must be an array of frame names" },
    { "search", "\"futex(\"", "“search” is not a regular expression" },
    { "search", "false", "“search” must be a string" },
    { "icicle", "\"yes\"", "“icicle” must be true or false" },
  };
  guint ti;

  session = make_session (&ti);
  ws_pin_add_trace (pin, ti);
  ws_pin_set_tid (pin, 11585);
  ws_pin_set_window (pin, 1987000000000, 1988500000000);
  ws_pin_set_flame (pin, &flame);
  ws_pin_list_append (ws_session_file_get_findings (session), pin);
  g_assert_true (ws_session_file_save (session, path, &error));
  g_assert_no_error (error);
  back = ws_session_file_load (path, &error);
  g_assert_no_error (error);
  g_assert_true (ws_pin_get_flame (ws_pin_list_get (ws_session_file_get_findings (back), 2), &read, &error));
  g_assert_no_error (error);
  g_assert_cmpint (read.mode, ==, WS_FLAME_OFF_WAKE);
  g_assert_cmpint (read.scope, ==, WS_FLAME_SCOPE_THREAD);
  g_assert_cmpstrv (read.zoom, zoom);
  g_assert_cmpstr (read.search, ==, "futex|lock");
  g_assert_true (read.icicle);
  ws_pin_flame_clear (&read);

  g_assert_true (g_file_get_contents (path, &text, NULL, NULL));
  for (guint i = 0; i < G_N_ELEMENTS (spoiled); i++)
    {
      g_autoptr(JsonParser) parser = json_parser_new ();
      g_autoptr(JsonNode) value = json_from_string (spoiled[i].json, NULL);
      g_autofree char *bad = NULL, *words = g_strdup_printf ("finding 2: a flame graph pin’s %s", spoiled[i].words);
      JsonObject *finding;

      g_assert_true (json_parser_load_from_data (parser, text, -1, NULL));
      finding = json_array_get_object_element (json_object_get_array_member (json_node_get_object (json_parser_get_root (parser)), "findings"), 2);
      json_object_set_member (json_object_get_object_member (finding, "settings"), spoiled[i].member, g_steal_pointer (&value));
      bad = json_to_string (json_parser_get_root (parser), FALSE);
      expect_error (dir, bad, -1, WS_ERROR_INVALID, words);
    }
  /* The thread scope without its thread. */
  {
    g_autoptr(JsonParser) parser = json_parser_new ();
    g_autofree char *bad = NULL;

    g_assert_true (json_parser_load_from_data (parser, text, -1, NULL));
    json_object_remove_member (json_array_get_object_element (json_object_get_array_member (json_node_get_object (json_parser_get_root (parser)), "findings"), 2), "tid");
    bad = json_to_string (json_parser_get_root (parser), FALSE);
    expect_error (dir, bad, -1, WS_ERROR_INVALID, "finding 2: a flame graph pin of the thread scope needs a “tid”");
  }
  ws_session_test_remove_dir (dir);
}

/* A fake trace @i: the reader checks no file, only the members. */
static void
add_fake_trace (WsSessionFile *session,
                guint          i)
{
  g_autofree char *path = g_strdup_printf ("/nowhere/run-%02u.perf.txt.gz", i);
  g_autofree char *sha = g_strdup_printf ("%064x", i + 1);

  ws_session_file_add_trace_hashed (session, path, NULL, sha, 1000 + i, NULL);
}

static gint64
saved_version (const char *path)
{
  g_autoptr(JsonParser) parser = json_parser_new ();

  g_assert_true (json_parser_load_from_file (parser, path, NULL));
  return json_object_get_int_member (json_node_get_object (json_parser_get_root (parser)), "version");
}

/* The traces' classes (`trace_classes`, version 2).  The law, over random
 * sessions: what is saved is read back, trace by trace (given or not, and
 * which class), and the file is version 2 exactly when a class is given.
 * A class naming a trace the session does not hold, or a bad member, is
 * refused with the file and the place. */
static void
test_trace_classes (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = ws_session_test_make_dir ("ws-session");
  g_autofree char *path = g_build_filename (dir, "classes.waitscope", NULL);
  g_autoptr(GRand) rand = g_rand_new_with_seed (g_test_rand_int ());
  static const struct { const char *member, *words; } spoiled[] = {
    { "\"trace_classes\": {}", "“trace_classes” must be an array" },
    { "\"trace_classes\": [3]", "trace class 0 is not an object" },
    { "\"trace_classes\": [{\"class\": \"slow\"}]", "trace class 0 has no “trace” index" },
    { "\"trace_classes\": [{\"trace\": \"0\", \"class\": \"slow\"}]", "trace class 0 has no “trace” index" },
    { "\"trace_classes\": [{\"trace\": 0, \"class\": \"slow\"}, {\"trace\": 2, \"class\": \"fast\"}]",
      "trace class 1: trace index 2 is out of range (the session lists 2 traces)" },
    { "\"trace_classes\": [{\"trace\": -1, \"class\": \"slow\"}]", "trace class 0: trace index -1 is out of range" },
    { "\"trace_classes\": [{\"trace\": 1, \"class\": \"medium\"}]", "trace class 0: “class” must be “slow”, “fast” or “none”" },
    { "\"trace_classes\": [{\"trace\": 1, \"class\": 2}]", "trace class 0: “class” must be" },
    { "\"trace_classes\": [{\"trace\": 1, \"class\": \"slow\"}, {\"trace\": 1, \"class\": \"fast\"}]",
      "trace class 1: trace 1 already has a class" },
  };

  for (guint round = 0; round < 200; round++)
    {
      g_autoptr(WsSessionFile) session = ws_session_file_new ();
      g_autoptr(WsSessionFile) back = NULL;
      guint n = g_rand_int_range (rand, 1, 13);
      gint given[12];   /* -1: none given, else the WsRunClass */
      gboolean any = FALSE;

      for (guint i = 0; i < n; i++)
        {
          add_fake_trace (session, i);
          given[i] = g_rand_int_range (rand, -1, 3);
          any |= given[i] >= 0;
          /* Given, then changed or taken away: the last word is saved. */
          if (g_rand_boolean (rand))
            ws_session_file_set_trace_class (session, i, TRUE, g_rand_int_range (rand, 0, 3));
          ws_session_file_set_trace_class (session, i, given[i] >= 0, MAX (given[i], 0));
        }
      g_assert_true (ws_session_file_save (session, path, &error));
      g_assert_no_error (error);
      g_assert_cmpint (saved_version (path), ==, any ? 2 : 1);
      back = ws_session_file_load (path, &error);
      g_assert_no_error (error);
      g_assert_cmpuint (ws_session_file_get_n_traces (back), ==, n);
      for (guint i = 0; i < n; i++)
        {
          WsRunClass klass = WS_RUN_CLASS_NONE;

          g_assert_cmpint (ws_session_file_get_trace_class (back, i, &klass), ==, given[i] >= 0);
          if (given[i] >= 0)
            g_assert_cmpint (klass, ==, given[i]);
        }
      /* A class for a trace past the last: refused, naming it. */
      {
        g_autofree char *text = NULL, *bad = NULL, *words = NULL;
        guint beyond = n + g_rand_int_range (rand, 0, 5);
        g_autoptr(JsonParser) parser = json_parser_new ();
        JsonObject *root, *member = json_object_new ();
        JsonArray *list;

        g_assert_true (g_file_get_contents (path, &text, NULL, NULL));
        g_assert_true (json_parser_load_from_data (parser, text, -1, NULL));
        root = json_node_get_object (json_parser_get_root (parser));
        if (!json_object_has_member (root, "trace_classes"))
          json_object_set_array_member (root, "trace_classes", json_array_new ());
        list = json_object_get_array_member (root, "trace_classes");
        json_object_set_int_member (member, "trace", beyond);
        json_object_set_string_member (member, "class", "slow");
        json_array_add_object_element (list, member);
        bad = json_to_string (json_parser_get_root (parser), FALSE);
        words = g_strdup_printf ("trace class %u: trace index %u is out of range (the session lists %u traces)",
                                 json_array_get_length (list) - 1, beyond, n);
        expect_error (dir, bad, -1, WS_ERROR_INVALID, words);
      }
    }

  for (guint i = 0; i < G_N_ELEMENTS (spoiled); i++)
    {
      g_autofree char *text = g_strdup_printf ("{\"format\": \"waitscope-session\", \"version\": 2, \"traces\": ["
                                               "{\"path\": \"/a\", \"sha256\": \"%064x\", \"size\": 1}, "
                                               "{\"path\": \"/b\", \"sha256\": \"%064x\", \"size\": 2}], "
                                               "%s, \"findings\": []}", 1, 2, spoiled[i].member);

      expect_error (dir, text, -1, WS_ERROR_INVALID, spoiled[i].words);
    }
  ws_session_test_remove_dir (dir);
}

/* A mining pin's rank and classes: read back as written, and a pin that
 * could not rank again as pinned is refused with the file and finding. */
static void
test_mining_pin_classes (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = ws_session_test_make_dir ("ws-session");
  g_autofree char *path = g_build_filename (dir, "mining.waitscope", NULL);
  g_autoptr(WsSessionFile) session = ws_session_file_new ();
  g_autoptr(WsSessionFile) back = NULL;
  g_autoptr(WsPin) pin = ws_pin_new (WS_PIN_KIND_ALIGNMENT);
  g_autofree char *text = NULL;
  g_autoptr(GArray) classes = NULL;
  JsonArray *list = json_array_new ();
  static const char * const pinned[] = { "fast", "slow", "none" };
  static const struct { const char *member, *json, *words; } spoiled[] = {
    { "rank", "9", "a mining pin’s “rank” must be an integer from 0 to 4" },
    { "classes", "[\"fast\", \"slow\"]", "a mining pin’s “classes” must be an array of one class per trace (3)" },
    { "classes", "\"slow\"", "a mining pin’s “classes” must be an array" },
    { "classes", "[\"fast\", \"quick\", \"none\"]", "a mining pin’s class 1 must be “slow”, “fast” or “none”" },
    { "classes", "[\"fast\", \"fast\", \"none\"]", "a mining pin ranked by what slow traces have more of must record its traces’ “classes”, a slow and a fast one" },
  };

  for (guint i = 0; i < 3; i++)
    {
      add_fake_trace (session, i);
      ws_pin_add_trace (pin, i);
      json_array_add_string_element (list, pinned[i]);
    }
  ws_pin_set_setting_int (pin, "rank", WS_CLUSTER_RANK_DISCRIMINATIVE);
  json_object_set_array_member (ws_pin_get_settings (pin), "classes", list);
  ws_pin_list_append (ws_session_file_get_findings (session), pin);
  g_assert_true (ws_session_file_save (session, path, &error));
  g_assert_no_error (error);
  /* A pin made with classes needs a version-2 reader. */
  g_assert_cmpint (saved_version (path), ==, 2);
  back = ws_session_file_load (path, &error);
  g_assert_no_error (error);
  classes = ws_pin_dup_run_classes (ws_pin_list_get (ws_session_file_get_findings (back), 0), &error);
  g_assert_no_error (error);
  g_assert_cmpuint (classes->len, ==, 3);
  g_assert_cmpint (g_array_index (classes, WsRunClass, 0), ==, WS_RUN_CLASS_FAST);
  g_assert_cmpint (g_array_index (classes, WsRunClass, 1), ==, WS_RUN_CLASS_SLOW);
  g_assert_cmpint (g_array_index (classes, WsRunClass, 2), ==, WS_RUN_CLASS_NONE);
  g_assert_cmpint (ws_pin_get_setting_int (ws_pin_list_get (ws_session_file_get_findings (back), 0), "rank", -1), ==,
                   WS_CLUSTER_RANK_DISCRIMINATIVE);

  g_assert_true (g_file_get_contents (path, &text, NULL, NULL));
  for (guint i = 0; i <= G_N_ELEMENTS (spoiled); i++)
    {
      g_autoptr(JsonParser) parser = json_parser_new ();
      g_autofree char *bad = NULL, *words = NULL;
      JsonObject *settings;

      g_assert_true (json_parser_load_from_data (parser, text, -1, NULL));
      settings = json_object_get_object_member (
        json_array_get_object_element (json_object_get_array_member (json_node_get_object (json_parser_get_root (parser)), "findings"), 0),
        "settings");
      if (i < G_N_ELEMENTS (spoiled))
        {
          json_object_set_member (settings, spoiled[i].member, json_from_string (spoiled[i].json, NULL));
          words = g_strdup_printf ("finding 0: %s", spoiled[i].words);
        }
      else
        {
          /* Ranked by the score without classes: it could not rank so. */
          json_object_remove_member (settings, "classes");
          words = g_strdup ("finding 0: a mining pin ranked by what slow traces have more of must record");
        }
      bad = json_to_string (json_parser_get_root (parser), FALSE);
      expect_error (dir, bad, -1, WS_ERROR_INVALID, words);
    }
  ws_session_test_remove_dir (dir);
}

/* A kind registered here, with its own check (a page's kind would be
 * registered so): the one reader of pins calls it for every pin of the
 * kind; a pin it refuses makes the file refused, naming the file and the
 * finding; one it accepts is read as written. */
static guint n_counter_checks;

static gboolean
counter_check (WsPin   *pin,
               GError **error)
{
  n_counter_checks++;
  if (ws_pin_get_setting_int (pin, "counter", -1) < 0)
    {
      g_set_error_literal (error, WS_ERROR, WS_ERROR_INVALID, "a counter pin’s “counter” must be 0 or more");
      return FALSE;
    }
  return TRUE;
}

static void
test_kind_check (void)
{
  static const WsPinKindInfo counter = { "test-checked-counter", "Counter", FALSE, FALSE, counter_check };
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = ws_session_test_make_dir ("ws-session");
  g_autofree char *path = g_build_filename (dir, "counter.waitscope", NULL);
  g_autoptr(WsSessionFile) session = NULL;
  g_autoptr(WsSessionFile) back = NULL;
  g_autoptr(WsPin) pin = ws_pin_new (counter.name);
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autofree char *text = NULL;
  g_autofree char *bad = NULL;
  JsonObject *finding;
  guint ti;

  ws_pin_kind_register (&counter);
  g_assert_true (ws_pin_kind_lookup (WS_PIN_KIND_FLAME)->check != NULL);
  session = make_session (&ti);
  ws_pin_add_trace (pin, ti);
  ws_pin_set_setting_int (pin, "counter", 7);
  ws_pin_list_append (ws_session_file_get_findings (session), pin);
  g_assert_true (ws_session_file_save (session, path, &error));
  g_assert_no_error (error);

  n_counter_checks = 0;
  back = ws_session_file_load (path, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (n_counter_checks, ==, 1);
  g_assert_cmpint (ws_pin_get_setting_int (ws_pin_list_get (ws_session_file_get_findings (back), 2), "counter", -1), ==, 7);

  /* The same file with the counter spoiled. */
  g_assert_true (g_file_get_contents (path, &text, NULL, NULL));
  g_assert_true (json_parser_load_from_data (parser, text, -1, NULL));
  finding = json_array_get_object_element (json_object_get_array_member (json_node_get_object (json_parser_get_root (parser)), "findings"), 2);
  json_object_set_int_member (json_object_get_object_member (finding, "settings"), "counter", -3);
  bad = json_to_string (json_parser_get_root (parser), FALSE);
  n_counter_checks = 0;
  expect_error (dir, bad, -1, WS_ERROR_INVALID, "finding 2: a counter pin’s “counter” must be 0 or more");
  g_assert_cmpuint (n_counter_checks, ==, 1);
  ws_session_test_remove_dir (dir);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/session-file/round-trip", test_round_trip);
  g_test_add_func ("/session-file/version-1", test_version_1);
  g_test_add_func ("/session-file/damaged", test_damaged);
  g_test_add_func ("/session-file/atomic-save", test_atomic_save);
  g_test_add_func ("/session-file/different-trace", test_different_trace);
  g_test_add_func ("/session-file/undo", test_undo);
  g_test_add_func ("/session-file/recovery", test_recovery);
  g_test_add_func ("/session-file/untrusted-recovery", test_untrusted_recovery);
  g_test_add_func ("/session-file/recovery-original-not-session", test_recovery_original_not_session);
  g_test_add_func ("/session-file/deep-nesting", test_deep_nesting);
  g_test_add_func ("/session-file/non-regular-trace", test_non_regular_trace);
  g_test_add_func ("/session-file/flame-pin", test_flame_pin);
  g_test_add_func ("/session-file/kind-check", test_kind_check);
  g_test_add_func ("/session-file/trace-classes", test_trace_classes);
  g_test_add_func ("/session-file/mining-pin-classes", test_mining_pin_classes);
  return g_test_run ();
}
