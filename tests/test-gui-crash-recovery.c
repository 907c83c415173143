/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * A real kill -9.  The test runs itself a second time as a child (the
 * environment variable WS_CRASH_CHILD) that opens py-locks in a real
 * window and keeps pinning and titling findings, printing "edit N" after
 * each one is in the list.  The parent reads those lines, sends SIGKILL
 * once a dozen edits are done, then starts a window of its own and
 * recovers: every edit made more than LOSS_LIMIT_S seconds before the
 * kill must be there (the promise: a crash loses at most the last few
 * seconds), in order, and nothing that was never made.  Everything waits
 * by polling; the child paces its edits, the parent never sleeps.
 */
#include "config.h"

#include <signal.h>
#include <stdio.h>
#include <string.h>

#include "ws-application.h"
#include "ws-findings-page.h"
#include "ws-gui-test-util.h"
#include "ws-window.h"

#define T0            1987000000000LL
#define EDIT_EVERY_MS 300
#define N_EDITS_SEEN  12
/* Autosave runs 2 s after a change; the rest is slack for a loaded machine. */
#define LOSS_LIMIT_S  8

static WsApplication *the_app;

static WsPinList *
pins_of (WsWindow *window)
{
  return ws_session_file_get_findings (ws_session_get_session_file (ws_window_get_session (window)));
}

/* ------------------------------------------------------------------ */
/* The child: a window that keeps changing its findings                */

typedef struct {
  WsWindow *window;
  guint     n;
} Child;

static gboolean
pin_arrived (gpointer data)
{
  Child *c = data;

  return ws_pin_list_get_n (pins_of (c->window)) > c->n;
}

static gboolean
edit_once (gpointer data)
{
  Child *c = data;
  WsDocument *document = ws_window_get_current_document (c->window);
  WsTrace *trace = ws_document_get_trace (document);
  g_autofree char *title = g_strdup_printf ("edit %u", c->n);
  g_autofree char *note = g_strdup_printf ("note of edit %u", c->n);

  ws_timeline_viewport_set_selection (ws_document_get_viewport (document), ws_trace_find_thread (trace, 11588),
                                      T0 + c->n * 10000000LL, T0 + c->n * 10000000LL + 5000000LL);
  gtk_widget_activate_action (GTK_WIDGET (c->window), "win.pin-view", NULL);
  ws_gui_test_wait_until (pin_arrived, c, 60, "the child's pin");
  ws_findings_page_set_note_text (ws_window_get_findings_page (c->window), title, note);
  printf ("edit %u\n", c->n);
  fflush (stdout);
  c->n++;
  return G_SOURCE_CONTINUE;
}

static gboolean
recovery_offered (gpointer window)
{
  const char *message = ws_findings_page_get_message (ws_window_get_findings_page (window));

  return message != NULL && strstr (message, "Recover") != NULL;
}

static int
run_child (void)
{
  Child c = { 0 };

  c.window = ws_gui_test_new_window (the_app, 0, 0);
  ws_gui_test_open_trace (c.window, "py-locks.perf.txt.gz");
  printf ("ready\n");
  fflush (stdout);
  g_timeout_add (EDIT_EVERY_MS, edit_once, &c);
  for (;;)   /* until SIGKILL */
    g_main_context_iteration (NULL, TRUE);
  return 0;
}

/* ------------------------------------------------------------------ */
/* The parent                                                          */

typedef struct {
  GArray  *times;     /* gint64: monotonic µs when "edit N" was read */
  gboolean ready;
  gboolean eof;
} Lines;

static void
read_line_cb (GObject      *source,
              GAsyncResult *result,
              gpointer      data)
{
  Lines *lines = data;
  g_autofree char *line = g_data_input_stream_read_line_finish (G_DATA_INPUT_STREAM (source), result, NULL, NULL);
  guint n;

  if (line == NULL)
    {
      lines->eof = TRUE;
      return;
    }
  if (g_str_equal (line, "ready"))
    lines->ready = TRUE;
  else if (sscanf (line, "edit %u", &n) == 1)
    {
      gint64 now = g_get_monotonic_time ();

      g_assert_cmpuint (n, ==, lines->times->len);
      g_array_append_val (lines->times, now);
    }
  g_data_input_stream_read_line_async (G_DATA_INPUT_STREAM (source), G_PRIORITY_DEFAULT, NULL, read_line_cb, lines);
}

static gboolean
enough_edits (gpointer data)
{
  Lines *lines = data;

  g_assert_false (lines->eof);   /* the child must not end on its own */
  return lines->times->len >= N_EDITS_SEEN;
}

static gboolean
child_gone (gpointer data)
{
  return ((Lines *) data)->eof;
}

/* The recovered findings must be edits 0 … k−1, in order, titled and noted. */
static guint
check_recovered (WsPinList *list,
                 guint      n_made)
{
  guint k = ws_pin_list_get_n (list);

  g_assert_cmpuint (k, <=, n_made + 1);   /* +1: pinned, killed before its line was printed */
  for (guint i = 0; i < k; i++)
    {
      g_autofree char *title = g_strdup_printf ("edit %u", i);
      g_autofree char *note = g_strdup_printf ("note of edit %u", i);
      WsPin *pin = ws_pin_list_get (list, i);

      /* The last one may be pinned but not yet titled when the copy was made. */
      if (i + 1 == k && !g_str_equal (ws_pin_get_title (pin), title))
        return k - 1;
      g_assert_cmpstr (ws_pin_get_title (pin), ==, title);
      g_assert_cmpstr (ws_pin_get_note (pin), ==, note);
    }
  return k;
}

static void
test_kill_and_recover (void)
{
  g_autofree char *dir = g_dir_make_tmp ("ws-crash-XXXXXX", NULL);
  g_autofree char *recovery = g_build_filename (dir, "recovery", NULL);
  g_autofree char *self_path = g_file_read_link ("/proc/self/exe", NULL);
  g_autoptr(GSubprocessLauncher) launcher = g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_STDOUT_PIPE);
  g_autoptr(GSubprocess) child = NULL;
  g_autoptr(GDataInputStream) out = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) copies = NULL;
  g_autoptr(WsSessionFile) recovered = NULL;
  Lines lines = { g_array_new (FALSE, FALSE, sizeof (gint64)) };
  gint64 killed_at;
  guint n_kept, n_old_enough = 0;
  WsWindow *window;

  g_setenv ("WAITSCOPE_RECOVERY_DIR", recovery, TRUE);
  g_subprocess_launcher_setenv (launcher, "WAITSCOPE_RECOVERY_DIR", recovery, TRUE);
  g_subprocess_launcher_setenv (launcher, "WS_CRASH_CHILD", "1", TRUE);
  child = g_subprocess_launcher_spawn (launcher, &error, self_path, NULL);
  g_assert_no_error (error);
  out = g_data_input_stream_new (g_subprocess_get_stdout_pipe (child));
  g_data_input_stream_read_line_async (out, G_PRIORITY_DEFAULT, NULL, read_line_cb, &lines);

  ws_gui_test_wait_until (enough_edits, &lines, 300, "a dozen edits in the child");
  g_subprocess_send_signal (child, SIGKILL);
  killed_at = g_get_monotonic_time ();
  ws_gui_test_wait_until (child_gone, &lines, 60, "the child to die");
  g_assert_true (g_subprocess_wait (child, NULL, NULL));
  g_assert_true (g_subprocess_get_if_signaled (child));
  g_assert_cmpint (g_subprocess_get_term_sig (child), ==, SIGKILL);

  /* What the crash left behind. */
  copies = ws_session_file_list_recoveries ();
  g_assert_cmpuint (copies->len, ==, 1);
  recovered = ws_session_file_load (g_ptr_array_index (copies, 0), &error);
  g_assert_no_error (error);
  n_kept = check_recovered (ws_session_file_get_findings (recovered), lines.times->len);
  for (guint i = 0; i < lines.times->len; i++)
    if (g_array_index (lines.times, gint64, i) <= killed_at - LOSS_LIMIT_S * G_USEC_PER_SEC)
      n_old_enough++;
  g_test_message ("%u edits made, %u kept; the newest kept was made %.1f s before the kill",
                  lines.times->len, n_kept,
                  n_kept ? (killed_at - g_array_index (lines.times, gint64, n_kept - 1)) / 1e6 : -1.0);
  g_assert_cmpuint (n_kept, >=, n_old_enough);
  g_assert_cmpuint (n_kept, >, 0);

  /* Restart: a new window offers the copy and Recover reopens it all. */
  window = ws_gui_test_new_window (the_app, 0, 0);
  ws_gui_test_wait_until (recovery_offered, window, 60, "the findings page to offer recovery");
  g_assert_true (ws_findings_page_recover (ws_window_get_findings_page (window)));
  g_assert_cmpuint (check_recovered (pins_of (window), lines.times->len), ==, n_kept);
  g_assert_true (ws_session_file_get_dirty (ws_session_get_session_file (ws_window_get_session (window))));
  ws_findings_page_discard (ws_window_get_findings_page (window));
  ws_gui_test_close_window (GTK_WIDGET (window));
  g_array_unref (lines.times);
}

int
main (int   argc,
      char *argv[])
{
  int status;

  the_app = ws_gui_test_init (&argc, &argv);
  if (g_getenv ("WS_CRASH_CHILD") != NULL)
    return run_child ();
  g_test_add_func ("/gui/crash-recovery/kill-9", test_kill_and_recover);
  status = g_test_run ();
  g_object_unref (the_app);
  return status;
}
