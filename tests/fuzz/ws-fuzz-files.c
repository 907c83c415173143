/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Fuzz checks for the two files Waitscope reads that are not traces: the
 * `.waitscope` session file and the SQLite history store.  Both are read
 * from a path, so the input is written to a scratch file first.
 *
 * Session oracle: a refusal is a WS_ERROR naming the file, in UTF-8; a
 * session that loads has every finding's trace indices in range, and
 * writes and reads back finding for finding (the format is how a session
 * survives a restart).
 *
 * History oracle: a store that is not one, or is damaged, is refused with
 * a WS_ERROR; one that opens answers every read-only question without
 * tripping a check, and the names it returns are UTF-8 (they reach JSON).
 */
#include "config.h"

#include <glib/gstdio.h>
#include <string.h>
#include <unistd.h>

#include "ws-error.h"
#include "ws-history-store.h"
#include "ws-pin-kind.h"
#include "ws-session-file.h"

#include "ws-fuzz-harness.h"

/* A scratch folder of this process's own, made once. */
static const char *
scratch_dir (void)
{
  static char *dir;

  if (dir == NULL)
    {
      g_autoptr(GError) error = NULL;

      dir = g_dir_make_tmp ("ws-fuzz-files-XXXXXX", &error);
      if (dir == NULL)
        ws_fuzz_fail ("cannot make a scratch folder: %s", error->message);
    }
  return dir;
}

static char *
write_input (const char   *name,
             const guint8 *data,
             gsize         size)
{
  char *path = g_build_filename (scratch_dir (), name, NULL);
  g_autoptr(GError) error = NULL;

  if (!g_file_set_contents (path, (const char *) data, size, &error))
    ws_fuzz_fail ("cannot write %s: %s", path, error->message);
  return path;
}

static void
check_refusal (const GError *error,
               const char   *path)
{
  if (error == NULL)
    ws_fuzz_fail ("%s: refused without an error", path);
  if (error->domain != WS_ERROR)
    ws_fuzz_fail ("error from domain %s, not WS_ERROR: %s", g_quark_to_string (error->domain), error->message);
  if (!g_utf8_validate (error->message, -1, NULL))
    ws_fuzz_fail ("error message is not valid UTF-8");
  if (strstr (error->message, path) == NULL)
    ws_fuzz_fail ("error does not name the file: %s", error->message);
}

/* ------------------------------------------------------------------------ */
/* Session files                                                              */
/* ------------------------------------------------------------------------ */

static void
check_session (WsSessionFile *session)
{
  WsPinList *findings = ws_session_file_get_findings (session);
  guint n_traces = ws_session_file_get_n_traces (session);

  for (guint i = 0; i < ws_pin_list_get_n (findings); i++)
    {
      WsPin *pin = ws_pin_list_get (findings, i);

      for (guint k = 0; k < ws_pin_get_n_traces (pin); k++)
        if (ws_pin_get_trace (pin, k) >= n_traces)
          ws_fuzz_fail ("finding %u names trace %u of %u", i, ws_pin_get_trace (pin, k), n_traces);
      if (ws_pin_kind_lookup (ws_pin_get_kind (pin)) == NULL && *ws_pin_get_kind (pin) == '\0')
        ws_fuzz_fail ("finding %u has an empty kind", i);
    }
}

static void
check_same_findings (WsSessionFile *a,
                     WsSessionFile *b)
{
  WsPinList *fa = ws_session_file_get_findings (a);
  WsPinList *fb = ws_session_file_get_findings (b);

  if (ws_session_file_get_n_traces (a) != ws_session_file_get_n_traces (b))
    ws_fuzz_fail ("a saved session reads back with %u traces instead of %u",
                  ws_session_file_get_n_traces (b), ws_session_file_get_n_traces (a));
  if (ws_pin_list_get_n (fa) != ws_pin_list_get_n (fb))
    ws_fuzz_fail ("a saved session reads back with %u findings instead of %u",
                  ws_pin_list_get_n (fb), ws_pin_list_get_n (fa));
  for (guint i = 0; i < ws_pin_list_get_n (fa); i++)
    {
      g_autoptr(JsonNode) ja = ws_pin_to_json (ws_pin_list_get (fa, i));
      g_autoptr(JsonNode) jb = ws_pin_to_json (ws_pin_list_get (fb, i));

      if (!json_node_equal (ja, jb))
        ws_fuzz_fail ("finding %u does not read back the same", i);
    }
}

gboolean
ws_fuzz_session_file (const guint8 *data,
                      gsize         size)
{
  g_autofree char *path = write_input ("fuzz-input.waitscope", data, size);
  g_autofree char *copy = g_build_filename (scratch_dir (), "copy.waitscope", NULL);
  g_autoptr(WsSessionFile) session = NULL;
  g_autoptr(WsSessionFile) again = NULL;
  g_autoptr(GError) error = NULL;

  session = ws_session_file_load (path, &error);
  g_unlink (path);
  if (session == NULL)
    {
      check_refusal (error, path);
      return FALSE;
    }
  check_session (session);
  if (!ws_session_file_save (session, copy, &error))
    ws_fuzz_fail ("a session that loaded cannot be saved: %s", error->message);
  again = ws_session_file_load (copy, &error);
  g_unlink (copy);
  if (again == NULL)
    ws_fuzz_fail ("a saved session does not read back: %s", error->message);
  check_same_findings (session, again);
  return TRUE;
}

/* ------------------------------------------------------------------------ */
/* History store                                                              */
/* ------------------------------------------------------------------------ */

static void
check_text (const char *what,
            const char *text)
{
  if (text != NULL && !g_utf8_validate (text, -1, NULL))
    ws_fuzz_fail ("%s is not valid UTF-8", what);
}

static void
read_everything (WsHistoryStore *store)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GArray) top = NULL;
  g_autoptr(GArray) flags = NULL;
  g_autoptr(GArray) wait_flags = NULL;
  g_autoptr(GArray) reservoir = NULL;
  g_autoptr(GArray) samples = NULL;
  WsHistoryStats stats;
  WsFunctionCounts counts;
  guint64 n_seen = 0;

  ws_history_store_get_stats (store, &stats, &error);
  g_clear_error (&error);
  top = ws_history_store_top_functions (store, 20, &error);
  g_clear_error (&error);
  for (guint i = 0; top != NULL && i < top->len; i++)
    {
      const WsHistoryFunction *f = &g_array_index (top, WsHistoryFunction, i);
      check_text ("a function name", f->function);
      check_text ("a module name", f->module);
    }
  ws_history_store_lookup_function (store, "main", "[unknown]", &counts);
  ws_history_store_get_n_traces (store);
  ws_history_store_get_n_callstacks (store);
  ws_history_store_has_trace (store, "0000");
  flags = ws_history_store_list_flags (store, NULL, &error);
  g_clear_error (&error);
  wait_flags = ws_history_store_list_wait_flags (store, NULL, &error);
  g_clear_error (&error);
  for (guint i = 0; wait_flags != NULL && i < wait_flags->len; i++)
    check_text ("a wait flag's signature", g_array_index (wait_flags, WsWaitFlag, i).signature);
  reservoir = ws_history_store_get_reservoir (store, "S:futex_wait", &n_seen, &error);
  g_clear_error (&error);
  samples = ws_history_store_get_wait_samples (store, "S:futex_wait", &error);
}

static void
remove_store (const char *path)
{
  g_autofree char *wal = g_strconcat (path, "-wal", NULL);
  g_autofree char *shm = g_strconcat (path, "-shm", NULL);
  g_autofree char *journal = g_strconcat (path, "-journal", NULL);

  g_unlink (path);
  g_unlink (wal);
  g_unlink (shm);
  g_unlink (journal);
}

gboolean
ws_fuzz_history_store (const guint8 *data,
                       gsize         size)
{
  g_autofree char *path = write_input ("fuzz-history.sqlite", data, size);
  g_autoptr(WsHistoryStore) store = NULL;
  g_autoptr(GError) error = NULL;
  gboolean opened;

  /* Read-only first, as `history stats` and the Mining page do... */
  store = ws_history_store_open_read_only (path, &error);
  if (store == NULL)
    check_refusal (error, path);
  else
    read_everything (store);
  opened = store != NULL;
  g_clear_object (&store);
  g_clear_error (&error);

  /* ...then as the application opens it to record (schema checks and
   * migrations run on what the fuzzer made). */
  store = ws_history_store_open (path, &error);
  if (store == NULL)
    check_refusal (error, path);
  else
    read_everything (store);
  g_clear_object (&store);
  remove_store (path);
  return opened;
}
