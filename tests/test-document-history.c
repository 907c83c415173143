/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * A trace loaded the way the window loads it (WsDocument, in its worker
 * thread) is recorded in the history store ($WAITSCOPE_HISTORY, a temp
 * file here): once per trace however often it is opened, not at all when
 * recording is off, and a store that cannot be opened leaves the load
 * successful with the reason kept for a toast.  No display needed:
 * WsDocument is GIO only.
 */
#include "config.h"

#include <glib/gstdio.h>
#include <string.h>

#include "ws-document.h"
#include "ws-history-store.h"

typedef struct {
  char *dir;
  char *history;
} Fixture;

static void
fixture_setup (Fixture *fx, gconstpointer data)
{
  fx->dir = g_dir_make_tmp ("ws-doc-history-XXXXXX", NULL);
  g_assert_nonnull (fx->dir);
  fx->history = g_build_filename (fx->dir, "h.sqlite", NULL);
  g_setenv ("WAITSCOPE_HISTORY", fx->history, TRUE);
}

static void
fixture_teardown (Fixture *fx, gconstpointer data)
{
  g_autofree char *cmd = g_strdup_printf ("rm -rf '%s'", fx->dir);

  g_assert_cmpint (system (cmd), ==, 0);
  g_free (fx->dir);
  g_free (fx->history);
}

static void
loaded_cb (GObject *source, GAsyncResult *result, gpointer user_data)
{
  g_autoptr(GError) error = NULL;

  g_assert_true (ws_document_load_finish (WS_DOCUMENT (source), result, &error));
  g_assert_no_error (error);
  *(gboolean *) user_data = TRUE;
}

static WsDocument *
load (const char *name, gboolean record)
{
  g_autofree char *path = g_build_filename (g_getenv ("WS_TEST_DATA"), name, NULL);
  g_autoptr(GFile) file = g_file_new_for_path (path);
  WsDocument *doc = ws_document_new (file);
  gboolean done = FALSE;

  g_assert_false (ws_document_get_record_history (doc));   /* off unless asked */
  ws_document_set_record_history (doc, record);
  ws_document_load_async (doc, NULL, loaded_cb, &done);
  while (!done)
    g_main_context_iteration (NULL, TRUE);
  g_assert_cmpint (ws_document_get_state (doc), ==, WS_DOCUMENT_READY);
  /* The history is written in the background once the trace shows. */
  while (ws_document_get_recording (doc))
    g_main_context_iteration (NULL, TRUE);
  return doc;
}

static guint
n_traces (const char *path)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(WsHistoryStore) store = NULL;

  if (!g_file_test (path, G_FILE_TEST_EXISTS))
    return 0;
  store = ws_history_store_open (path, &error);
  g_assert_no_error (error);
  return ws_history_store_get_n_traces (store);
}

static void
test_records_once (Fixture *fx, gconstpointer data)
{
  g_autoptr(WsDocument) a = NULL;
  g_autoptr(WsDocument) again = NULL;
  g_autoptr(WsDocument) b = NULL;
  g_autoptr(WsHistoryStore) store = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *digest = NULL;

  g_assert_cmpuint (n_traces (fx->history), ==, 0);

  a = load ("py-locks.perf.txt.gz", TRUE);
  g_assert_null (ws_document_get_history_error (a));
  g_assert_cmpuint (n_traces (fx->history), ==, 1);

  /* The very trace, under the digest the CLI and the miner use. */
  store = ws_history_store_open (fx->history, &error);
  g_assert_no_error (error);
  digest = ws_history_store_trace_digest (ws_document_get_trace (a), &error);
  g_assert_true (ws_history_store_has_trace (store, digest));
  g_clear_object (&store);
  /* The document hashed the file on a thread of its own while parsing it:
   * the SHA-256 of the file's bytes, as GLib computes it. */
  {
    g_autofree char *path = g_build_filename (g_getenv ("WS_TEST_DATA"), "py-locks.perf.txt.gz", NULL);
    g_autofree char *bytes = NULL;
    g_autofree char *expected = NULL;
    gsize len = 0;

    g_assert_true (g_file_get_contents (path, &bytes, &len, NULL));
    expected = g_compute_checksum_for_data (G_CHECKSUM_SHA256, (const guchar *) bytes, len);
    g_assert_cmpstr (ws_document_get_digest (a), ==, expected);
    g_assert_cmpstr (digest, ==, expected);
  }

  /* Opened again: still one. */
  again = load ("py-locks.perf.txt.gz", TRUE);
  g_assert_null (ws_document_get_history_error (again));
  g_assert_cmpuint (n_traces (fx->history), ==, 1);

  /* Recording off (the record-history setting unticked): not added. */
  b = load ("build.perf.txt.gz", FALSE);
  g_assert_cmpuint (n_traces (fx->history), ==, 1);
  g_clear_object (&b);
  b = load ("build.perf.txt.gz", TRUE);
  g_assert_cmpuint (n_traces (fx->history), ==, 2);
}

/* The store's directory cannot be made (its parent is a file): the trace
 * loads all the same, and the document says why it was not recorded. */
static void
test_store_failure_is_not_fatal (Fixture *fx, gconstpointer data)
{
  g_autofree char *blocker = g_build_filename (fx->dir, "a-file", NULL);
  g_autofree char *bad = g_build_filename (blocker, "sub", "h.sqlite", NULL);
  g_autoptr(WsDocument) doc = NULL;
  const GError *error;

  g_assert_true (g_file_set_contents (blocker, "x", 1, NULL));
  g_setenv ("WAITSCOPE_HISTORY", bad, TRUE);

  g_test_expect_message (G_LOG_DOMAIN, G_LOG_LEVEL_WARNING, "*not recorded in the history*");
  doc = load ("py-locks.perf.txt.gz", TRUE);
  g_test_assert_expected_messages ();

  g_assert_nonnull (ws_document_get_trace (doc));
  error = ws_document_get_history_error (doc);
  g_assert_nonnull (error);
  g_assert_nonnull (strstr (error->message, blocker));
}

int
main (int argc, char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  if (g_getenv ("WS_TEST_DATA") == NULL)
    {
      g_test_skip ("WS_TEST_DATA must be set");
      return g_test_run ();
    }
  g_test_add ("/document-history/records-once", Fixture, NULL, fixture_setup, test_records_once, fixture_teardown);
  g_test_add ("/document-history/store-failure-is-not-fatal", Fixture, NULL, fixture_setup,
              test_store_failure_is_not_fatal, fixture_teardown);
  return g_test_run ();
}
