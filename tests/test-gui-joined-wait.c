/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * A lock wait the program's own timeout cut into tries, in the real
 * window (tests/data/causes/timed-lock): clicking one try frames the whole
 * joined wait in the timeline, the details pane says what the whole wait
 * was and who ended it, and the Overview explains the whole wait.  Screenshots at 1280×720 and 1920×1080.
 */
#include "config.h"

#include <adwaita.h>
#include <string.h>

#include "ws-details-pane.h"
#include "ws-false-run.h"
#include "ws-gui-test-util.h"
#include "ws-overview-page.h"
#include "ws-time-format.h"
#include "ws-window.h"

static WsApplication *the_app;

/* The label text of @widget and its descendants, joined. */
static void
collect_text (GtkWidget *widget,
              GString   *out)
{
  if (GTK_IS_LABEL (widget))
    g_string_append_printf (out, "%s\n", gtk_label_get_text (GTK_LABEL (widget)));
  for (GtkWidget *c = gtk_widget_get_first_child (widget); c != NULL; c = gtk_widget_get_next_sibling (c))
    collect_text (c, out);
}

typedef struct {
  GtkWidget  *overview;
  const char *want;
} OverviewSays;

static gboolean
overview_says (gpointer data)
{
  OverviewSays *o = data;
  g_autoptr(GString) text = g_string_new (NULL);

  collect_text (o->overview, text);
  return strstr (text->str, o->want) != NULL;
}

static void
check_size (int width,
            int height)
{
  g_autofree char *path = g_build_filename (g_getenv ("WS_TEST_DATA"), "causes", "timed-lock.perf.txt.gz", NULL);
  g_autofree char *name = g_strdup_printf ("joined-wait-%dx%d", width, height);
  g_autoptr(GString) text = g_string_new (NULL);
  g_autoptr(GdkTexture) shot = NULL;
  WsWindow *window = ws_window_new (GTK_APPLICATION (the_app));
  const WsWaitChain *longest = NULL;
  const WsFalseRuns *fr;
  WsDocument *document;
  WsTrace *trace;
  WsTimelineViewport *viewport;

  gtk_window_set_default_size (GTK_WINDOW (window), width, height);
  gtk_window_present (GTK_WINDOW (window));
  document = ws_gui_test_open_trace (window, path);
  trace = ws_document_get_trace (document);
  viewport = ws_document_get_viewport (document);

  /* The joined wait of the most tries that the holder ended; its first
   * try clicked. */
  fr = ws_false_runs_get (trace, NULL);
  for (guint c = 0; c < ws_false_runs_get_n_chains (fr); c++)
    {
      const WsWaitChain *chain = ws_false_runs_get_chain (fr, c);
      guint readier = WS_NONE;

      if (ws_frame_classifier_classify_wake (ws_frame_classifier_get_default (), trace, chain->last, &readier) == WS_WAKE_THREAD
          && g_strcmp0 (ws_trace_get_thread (trace, readier)->name, "tl-holder") == 0
          && (longest == NULL || chain->n_pieces > longest->n_pieces))
        longest = chain;
    }
  g_assert_nonnull (longest);
  g_assert_cmpuint (longest->n_pieces, >=, 3);
  ws_timeline_viewport_set_visible (viewport, longest->start - (longest->end - longest->start) / 2,
                                    longest->end + (longest->end - longest->start) / 2);
  ws_timeline_viewport_set_selected_event (viewport, longest->first);
  {
    OverviewSays details = { GTK_WIDGET (ws_window_get_details_pane (window)), "woken by tl-holder" };

    ws_gui_test_wait_until (overview_says, &details, 60, "the details to say who woke the joined wait");
  }

  collect_text (GTK_WIDGET (ws_window_get_details_pane (window)), text);
  g_test_message ("details: %s", text->str);
  g_assert_nonnull (strstr (text->str, "one lock wait of"));
  g_assert_nonnull (strstr (text->str, "woken by tl-holder"));

  /* The Overview explains the whole joined wait, not the clicked try. */
  {
    g_autofree char *span = ws_format_duration (longest->end - longest->start);
    g_autofree char *want = g_strdup_printf ("(%s)", span);
    OverviewSays o = { ws_gui_test_find_child (GTK_WIDGET (window), WS_TYPE_OVERVIEW_PAGE), want };

    ws_gui_test_wait_until (overview_says, &o, 120, "the Overview explaining the joined wait");
  }

  shot = ws_gui_test_screenshot (GTK_WIDGET (window), name);
  g_assert_nonnull (shot);
  gtk_window_destroy (GTK_WINDOW (window));
}

static void
test_joined_wait (void)
{
  check_size (1280, 720);
  check_size (1920, 1080);
}

int
main (int    argc,
      char **argv)
{
  the_app = ws_gui_test_init (&argc, &argv);

  g_test_add_func ("/gui/joined-wait/details-and-frame", test_joined_wait);
  return g_test_run ();
}
