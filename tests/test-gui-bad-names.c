/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * A trace whose thread names, symbols and module, and its own file name,
 * are not UTF-8 (perf writes them byte for byte), opened in the real
 * window under Xvfb.  The test runs with GLib warnings fatal
 * (gtk_test_init), so a GtkLabel fed invalid UTF-8 ("Invalid UTF-8 passed
 * to gtk_label_set_text()") or Pango complaining fails it.  The names must
 * be on screen with U+FFFD for the bad bytes: in the Threads table, the
 * wait's stack in the details pane and the window title.
 */
#include "config.h"

#include <string.h>

#include "ws-application.h"
#include "ws-gui-test-util.h"
#include "ws-window.h"

#define REPLACEMENT "\xef\xbf\xbd"

static WsApplication *the_app;

/* Every text shown by a label or inscription under @widget, one a line. */
static void
collect_text (GtkWidget *widget,
              GString   *out)
{
  const char *text = NULL;

  if (GTK_IS_LABEL (widget))
    text = gtk_label_get_text (GTK_LABEL (widget));
  else if (GTK_IS_INSCRIPTION (widget))
    text = gtk_inscription_get_text (GTK_INSCRIPTION (widget));
  if (text != NULL && gtk_widget_get_mapped (widget))
    {
      g_assert_true (g_utf8_validate (text, -1, NULL));
      g_string_append (out, text);
      g_string_append_c (out, '\n');
    }
  for (GtkWidget *c = gtk_widget_get_first_child (widget); c != NULL; c = gtk_widget_get_next_sibling (c))
    collect_text (c, out);
}

static gboolean
shows (gpointer data)
{
  GtkWidget *window = ((gpointer *) data)[0];
  const char *needle = ((gpointer *) data)[1];
  g_autoptr(GString) text = g_string_new (NULL);

  collect_text (window, text);
  return strstr (text->str, needle) != NULL;
}

static void
wait_until_shown (GtkWidget  *window,
                  const char *needle)
{
  gpointer query[2] = { window, (gpointer) needle };

  ws_gui_test_wait_until (shows, query, 30, needle);
}

/* py-locks' first records, with bytes that are not UTF-8 written in. */
static char *
write_bad_trace (const char *dir)
{
  g_autofree char *seed = g_build_filename (g_getenv ("WS_TEST_DATA"), "..", "fuzz", "corpus", "perf-text",
                                            "py-locks-start.txt", NULL);
  char *path = g_build_filename (dir, "bad-\xff-name.txt", NULL);
  g_autofree char *contents = NULL;
  g_autoptr(GString) s = NULL;
  g_autoptr(GError) error = NULL;

  g_file_get_contents (seed, &contents, NULL, &error);
  g_assert_no_error (error);
  s = g_string_new (contents);
  g_string_replace (s, "perf 11591/11591", "pe\xffrf 11591/11591", 0);
  g_string_replace (s, "perf:11591/11591", "pe\xffrf:11591/11591", 0);
  g_string_replace (s, "comm=perf ", "comm=pe\xffrf ", 0);
  g_string_replace (s, "comm=migration/0", "comm=migra\xfe\xfftion/0", 0);
  g_string_replace (s, "schedule", "sche\xc3" "dule", 0);
  g_string_replace (s, "([kernel.kallsyms])", "([ker\xe9nel.kallsyms])", 0);
  g_file_set_contents (path, s->str, s->len, &error);
  g_assert_no_error (error);
  return path;
}

/* A wait of @thread whose stack has a replaced byte, selected as a click would. */
static gboolean
select_bad_wait (WsDocument *document,
                 guint       thread)
{
  WsTrace *trace = ws_document_get_trace (document);
  const WsThread *t = ws_trace_get_thread (trace, thread);

  for (guint i = 0; i < t->n_events; i++)
    {
      const WsEvent *e = ws_trace_get_event (trace, t->events[i]);

      if (e->kind == WS_EVENT_WAIT && ws_gui_test_stack_has (trace, e->stack, "sche" REPLACEMENT "dule"))
        {
          ws_timeline_viewport_set_selected_event (ws_document_get_viewport (document), t->events[i]);
          return TRUE;
        }
    }
  return FALSE;
}

static void
test_bad_names_shown (void)
{
  g_autofree char *dir = g_dir_make_tmp ("ws-gui-names-XXXXXX", NULL);
  g_autofree char *path = write_bad_trace (dir);
  WsWindow *window = ws_gui_test_new_window (the_app, 1580, 980);
  WsDocument *document;
  WsTrace *trace;
  guint thread = WS_NONE;

  document = ws_gui_test_open_trace (window, path);
  trace = ws_document_get_trace (document);

  /* The model already holds UTF-8, U+FFFD for each bad byte. */
  for (guint i = 0; i < ws_trace_get_n_threads (trace); i++)
    {
      const WsThread *t = ws_trace_get_thread (trace, i);

      g_assert_true (g_utf8_validate (t->name, -1, NULL));
      if (t->tid == 11591)
        thread = i;
    }
  g_assert_cmpuint (thread, !=, WS_NONE);
  g_assert_cmpstr (ws_trace_get_thread (trace, thread)->name, ==, "pe" REPLACEMENT "rf");
  g_assert_true (g_utf8_validate (gtk_window_get_title (GTK_WINDOW (window)), -1, NULL));

  ws_window_show_details_page (window, "threads");
  wait_until_shown (GTK_WIDGET (window), "pe" REPLACEMENT "rf");
  g_object_unref (ws_gui_test_screenshot (GTK_WIDGET (window), "bad-names-threads.png"));

  g_assert_true (select_bad_wait (document, thread));
  ws_window_show_details_page (window, "details");
  wait_until_shown (GTK_WIDGET (window), "sche" REPLACEMENT "dule");
  g_object_unref (ws_gui_test_screenshot (GTK_WIDGET (window), "bad-names-details.png"));

  ws_gui_test_close_window (GTK_WIDGET (window));
}

int
main (int   argc,
      char *argv[])
{
  int status;

  the_app = ws_gui_test_init (&argc, &argv);
  g_test_add_func ("/gui/bad-names/shown-without-warnings", test_bad_names_shown);
  status = g_test_run ();
  g_object_unref (the_app);
  return status;
}
