/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * A session file from someone else, through the real waitscope-cli: it
 * may claim to be a recovery copy of any of the user's files, nest JSON
 * a hundred thousand levels deep, or name a FIFO as its trace.  None of
 * that may cost the user a file, crash or hang the command.
 */
#include "config.h"

#include <string.h>
#include <sys/stat.h>

#include <glib/gstdio.h>

#include "ws-cli-test-util.h"
#include "ws-pin-kind.h"
#include "ws-session-file.h"
#include "ws-session-test-util.h"

/* A new session on py-locks, saved by the CLI itself at @path. */
static void
new_session (const char *path)
{
  g_autofree char *trace = ws_cli_test_data_path ("py-locks.perf.txt.gz");
  g_auto(WsCliRun) run = { 0 };

  ws_cli_run (&run, "session", "new", path, trace, NULL);
  g_assert_cmpint (run.status, ==, 0);
}

/* The review's reproducer: "recovery": {"original_path": VICTIM} and a
 * title that runs a command if it lands in a shell's start-up file. */
static void
test_pin_keeps_victim (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = ws_session_test_make_dir ("ws-untrusted");
  g_autofree char *rdir = g_build_filename (dir, "recovery", NULL);
  g_autofree char *victim = g_build_filename (dir, "bashrc", NULL);
  g_autofree char *path = g_build_filename (dir, "shared.waitscope", NULL);
  g_autofree char *data = NULL;
  g_autofree char *member = NULL;
  g_autofree char *hostile = NULL;
  g_autofree char *victim_after = NULL;
  g_autofree char *env_dir = g_strconcat ("WAITSCOPE_RECOVERY_DIR=", rdir, NULL);
  const char *envp[] = { env_dir, NULL };
  const char *args[] = { "session", "pin", path, "--view", "timeline", "--tid", "11588",
                         "--title", "$(touch PWNED)", NULL };
  g_auto(WsCliRun) run = { 0 };

  g_assert_true (g_file_set_contents (victim, "echo hello\n", -1, &error));
  new_session (path);
  g_assert_true (g_file_get_contents (path, &data, NULL, &error));
  member = g_strdup_printf ("\"recovery\": {\"original_path\": \"%s\"}", victim);
  hostile = ws_session_test_add_member (data, member);
  g_free (ws_session_test_write (dir, "shared.waitscope", hostile, -1));

  ws_cli_run_argv (&run, envp, args);
  g_assert_cmpint (run.status, ==, 0);
  g_assert_true (g_file_get_contents (victim, &victim_after, NULL, &error));
  g_assert_cmpstr (victim_after, ==, "echo hello\n");
  g_assert_true (g_file_test (path, G_FILE_TEST_IS_REGULAR));
  g_clear_pointer (&data, g_free);
  g_assert_true (g_file_get_contents (path, &data, NULL, &error));
  g_assert_nonnull (strstr (data, "$(touch PWNED)"));   /* the pin went into the file named */

  ws_session_test_remove_dir (dir);
}

/* 100,000 levels of nesting: a clear error naming the file, exit 1. */
static void
test_deep_session (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = ws_session_test_make_dir ("ws-untrusted");
  g_autofree char *path = g_build_filename (dir, "deep.waitscope", NULL);
  g_autoptr(GString) text = g_string_new ("{\"format\": \"waitscope-session\", \"version\": 1, \"title\": ");
  const char *commands[][3] = { { "session", "show", NULL }, { "report", NULL, NULL } };

  for (int i = 0; i < 100000; i++)
    g_string_append (text, "{\"a\":");
  g_string_append (text, "1");
  for (int i = 0; i < 100000; i++)
    g_string_append_c (text, '}');
  g_string_append_c (text, '}');
  g_free (ws_session_test_write (dir, "deep.waitscope", text->str, text->len));
  for (guint c = 0; c < G_N_ELEMENTS (commands); c++)
    {
      g_auto(WsCliRun) run = { 0 };
      const char *args[5] = { commands[c][0], commands[c][1] ? commands[c][1] : path,
                              commands[c][1] ? path : "-o", commands[c][1] ? NULL : "/tmp/ws-untrusted-report.html", NULL };

      ws_cli_run_argv (&run, NULL, args);
      g_assert_cmpint (run.status, ==, 1);
      g_assert_nonnull (strstr (run.err, path));
      g_assert_nonnull (strstr (run.err, "nested deeper"));
    }
  ws_session_test_remove_dir (dir);
}

/* A session whose trace is a FIFO or /dev/zero: refused, never read. */
static void
test_session_naming_fifo (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = ws_session_test_make_dir ("ws-untrusted");
  g_autofree char *path = g_build_filename (dir, "fifo.waitscope", NULL);
  g_autofree char *fifo = g_build_filename (dir, "trace.perf.txt", NULL);
  const char *targets[] = { fifo, "/dev/zero" };

  g_assert_cmpint (mkfifo (fifo, 0600), ==, 0);
  for (guint k = 0; k < G_N_ELEMENTS (targets); k++)
    {
      g_auto(WsCliRun) pin = { 0 };
      g_auto(WsCliRun) report = { 0 };
      g_autofree char *text = g_strdup_printf (
        "{\"format\": \"waitscope-session\", \"version\": 1, \"title\": \"t\", "
        "\"traces\": [{\"path\": \"%s\", \"sha256\": \"%064d\", \"size\": 100, \"name\": \"x\"}], "
        "\"findings\": [{\"id\": \"a\", \"view\": \"timeline\", \"title\": \"a\", \"note\": \"\", \"traces\": [0], \"tid\": 1, \"settings\": {}}], "
        "\"view_state\": {}, \"settings\": {}}", targets[k], 0);

      g_free (ws_session_test_write (dir, "fifo.waitscope", text, -1));
      ws_cli_run (&report, "report", path, "-o", "/tmp/ws-untrusted-report.html", NULL);
      g_assert_cmpint (report.status, ==, 1);
      g_assert_nonnull (strstr (report.err, targets[k]));
      ws_cli_run (&pin, "session", "pin", path, "--view", "timeline", "--trace", "0", NULL);
      g_assert_cmpint (pin.status, ==, 1);
      g_assert_cmpfloat (pin.seconds, <, 60);
    }
  ws_session_test_remove_dir (dir);
}

/* A pin of a kind a page of the application registered (the page-plugin
 * test's "test-counter"): this command does not know the kind.  The
 * session still shows and takes other pins, keeping that one; asking for
 * the kind is refused with a message naming it and every kind the
 * command does pin (the registry's, the oracle here). */
static void
test_page_pin_kind (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = ws_session_test_make_dir ("ws-untrusted");
  g_autofree char *path = g_build_filename (dir, "page-kind.waitscope", NULL);
  g_autoptr(WsSessionFile) session = NULL;
  g_autoptr(WsPin) page_pin = ws_pin_new ("test-counter");
  g_autoptr(GPtrArray) kinds = ws_pin_kind_list ();
  g_auto(WsCliRun) show = { 0 };
  g_auto(WsCliRun) refused = { 0 };
  g_auto(WsCliRun) other = { 0 };
  WsPinList *pins;

  g_assert_null (ws_pin_kind_lookup ("test-counter"));
  new_session (path);
  session = ws_session_file_load (path, &error);
  g_assert_no_error (error);
  ws_pin_add_trace (page_pin, 0);
  ws_pin_set_setting_int (page_pin, "counter", 42);
  ws_pin_list_append (ws_session_file_get_findings (session), page_pin);
  g_assert_true (ws_session_file_save (session, path, &error));
  g_clear_object (&session);

  ws_cli_run (&show, "session", "show", path, NULL);
  g_assert_cmpint (show.status, ==, 0);
  g_assert_nonnull (strstr (show.out, "test-counter"));

  ws_cli_run (&refused, "session", "pin", path, "--view", "test-counter", NULL);
  g_assert_cmpint (refused.status, ==, 2);
  g_assert_nonnull (strstr (refused.err, "“test-counter”"));
  g_assert_cmpuint (kinds->len, >=, 11);
  for (guint i = 0; i < kinds->len; i++)
    if (strstr (refused.err, g_ptr_array_index (kinds, i)) == NULL)
      g_error ("the refusal does not list the kind %s: %s", (const char *) g_ptr_array_index (kinds, i), refused.err);

  ws_cli_run (&other, "session", "pin", path, "--view", "timeline", "--tid", "11588", NULL);
  g_assert_cmpint (other.status, ==, 0);
  session = ws_session_file_load (path, &error);
  g_assert_no_error (error);
  pins = ws_session_file_get_findings (session);
  g_assert_cmpuint (ws_pin_list_get_n (pins), ==, 2);
  g_assert_cmpstr (ws_pin_get_kind (ws_pin_list_get (pins, 0)), ==, "test-counter");
  g_assert_cmpint (ws_pin_get_setting_int (ws_pin_list_get (pins, 0), "counter", -1), ==, 42);
  g_assert_cmpstr (ws_pin_get_kind (ws_pin_list_get (pins, 1)), ==, "timeline");

  ws_session_test_remove_dir (dir);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/cli/untrusted-session/pin-keeps-victim", test_pin_keeps_victim);
  g_test_add_func ("/cli/untrusted-session/deep", test_deep_session);
  g_test_add_func ("/cli/untrusted-session/fifo-trace", test_session_naming_fifo);
  g_test_add_func ("/cli/untrusted-session/page-pin-kind", test_page_pin_kind);
  return g_test_run ();
}
