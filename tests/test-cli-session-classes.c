/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * `waitscope-cli session` and the traces' classes (issue 28): `session pin
 * --run-class` saves them in the session, a mining pin ranked by what slow
 * traces have more of records them and its rank, a pin without them takes
 * the session's, `--rank discriminative` without a slow and a fast trace is
 * refused, `session show` prints each trace's class, and a session whose
 * class names a trace it does not hold is refused naming file and place.
 * The real binary, on four runs of tests/data/fleet.
 */
#include "config.h"

#include <glib/gstdio.h>
#include <json-glib/json-glib.h>
#include <string.h>

#include "ws-cli-test-util.h"
#include "ws-session-test-util.h"

/* The session document `session show --json` prints. */
static JsonNode *
show_json (const char *path)
{
  g_auto(WsCliRun) run = { 0 };
  g_autoptr(GError) error = NULL;
  JsonNode *root;

  ws_cli_run (&run, "session", "show", "--json", path, NULL);
  g_assert_cmpint (run.status, ==, 0);
  root = json_from_string (run.out, &error);
  g_assert_no_error (error);
  return root;
}

static const char *
class_of (JsonObject *doc,
          guint       trace)
{
  JsonArray *list = json_object_get_array_member (doc, "trace_classes");

  for (guint i = 0; list != NULL && i < json_array_get_length (list); i++)
    {
      JsonObject *c = json_array_get_object_element (list, i);

      if (json_object_get_int_member (c, "trace") == trace)
        return json_object_get_string_member (c, "class");
    }
  return NULL;
}

static void
test_session_classes (void)
{
  g_autofree char *dir = ws_session_test_make_dir ("ws-cli-classes");
  g_autofree char *path = g_build_filename (dir, "fleet.waitscope", NULL);
  const char *runs[] = { "fleet/run-01.perf.txt.gz", "fleet/run-02.perf.txt.gz", "fleet/run-03.perf.txt.gz",
                         "fleet/run-07.perf.txt.gz" };
  const char *want[] = { "fast", "fast", "slow", "slow" };
  g_autofree char *r0 = ws_cli_test_data_path (runs[0]), *r1 = ws_cli_test_data_path (runs[1]);
  g_autofree char *r2 = ws_cli_test_data_path (runs[2]), *r3 = ws_cli_test_data_path (runs[3]);
  g_auto(WsCliRun) made = { 0 }, refused = { 0 }, pinned = { 0 }, again = { 0 }, shown = { 0 }, bad = { 0 };
  g_autoptr(JsonNode) root = NULL, root2 = NULL;
  JsonObject *doc, *settings;
  JsonArray *classes;

  if (g_getenv ("WS_CLI") == NULL)
    {
      g_test_skip ("WS_CLI is not set");
      return;
    }
  ws_cli_run (&made, "session", "new", path, r0, r1, r2, r3, NULL);
  g_assert_cmpint (made.status, ==, 0);

  /* No classes yet: ranking by the score is refused, and nothing saved. */
  ws_cli_run (&refused, "session", "pin", path, "--view", "alignment", "--trace", "0", "--trace", "1", "--trace", "2",
              "--trace", "3", "--rank", "discriminative", NULL);
  g_assert_cmpint (refused.status, ==, 2);
  g_assert_nonnull (strstr (refused.err, "--rank discriminative needs a slow and a fast trace"));

  ws_cli_run (&pinned, "session", "pin", path, "--view", "alignment", "--trace", "0", "--trace", "1", "--trace", "2",
              "--trace", "3", "--run-class", "fast", "--run-class", "fast", "--run-class", "slow", "--run-class", "slow",
              "--rank", "discriminative", "--cluster", "0", NULL);
  g_assert_cmpint (pinned.status, ==, 0);
  root = show_json (path);
  doc = json_node_get_object (root);
  g_assert_cmpint (json_object_get_int_member (doc, "version"), ==, 2);
  settings = json_object_get_object_member (json_array_get_object_element (json_object_get_array_member (doc, "findings"), 0),
                                            "settings");
  g_assert_cmpint (json_object_get_int_member (settings, "rank"), ==, 4);
  classes = json_object_get_array_member (settings, "classes");
  g_assert_cmpuint (json_array_get_length (classes), ==, 4);
  for (guint i = 0; i < 4; i++)
    {
      g_assert_cmpstr (class_of (doc, i), ==, want[i]);
      g_assert_cmpstr (json_array_get_string_element (classes, i), ==, want[i]);
    }

  /* Without --run-class a pin takes the session's classes (in its own
   * trace order); by cost here, with the classes still recorded. */
  ws_cli_run (&again, "session", "pin", path, "--view", "alignment", "--trace", "3", "--trace", "0", "--cluster", "0", NULL);
  g_assert_cmpint (again.status, ==, 0);
  root2 = show_json (path);
  settings = json_object_get_object_member (
    json_array_get_object_element (json_object_get_array_member (json_node_get_object (root2), "findings"), 1), "settings");
  g_assert_cmpint (json_object_get_int_member (settings, "rank"), ==, 0);
  classes = json_object_get_array_member (settings, "classes");
  g_assert_cmpuint (json_array_get_length (classes), ==, 2);
  g_assert_cmpstr (json_array_get_string_element (classes, 0), ==, "slow");
  g_assert_cmpstr (json_array_get_string_element (classes, 1), ==, "fast");

  ws_cli_run (&shown, "session", "show", path, NULL);
  g_assert_cmpint (shown.status, ==, 0);
  g_assert_nonnull (strstr (shown.out, "run-03.perf.txt.gz  (class: slow)"));
  g_assert_nonnull (strstr (shown.out, "run-01.perf.txt.gz  (class: fast)"));

  /* A class for a trace the session does not hold: refused, file and place. */
  {
    g_autofree char *text = NULL, *spoiled = NULL;
    g_autoptr(GRegex) re = g_regex_new ("\"trace\"\\s*:\\s*3", 0, 0, NULL);

    g_assert_true (g_file_get_contents (path, &text, NULL, NULL));
    spoiled = g_regex_replace_literal (re, text, -1, 0, "\"trace\": 9", 0, NULL);
    g_assert_cmpstr (spoiled, !=, text);
    g_assert_true (g_file_set_contents (path, spoiled, -1, NULL));
    ws_cli_run (&bad, "session", "show", path, NULL);
    g_assert_cmpint (bad.status, ==, 1);
    g_assert_nonnull (strstr (bad.err, path));
    g_assert_nonnull (strstr (bad.err, "trace class 3: trace index 9 is out of range (the session lists 4 traces)"));
  }
  ws_session_test_remove_dir (dir);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/cli/session-classes/pin-and-show", test_session_classes);
  return g_test_run ();
}
