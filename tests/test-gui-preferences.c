/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The Preferences window in the real application under a display (Xvfb
 * in the suite): win.preferences opens it; every key of the GSettings
 * schema a person chooses has its row (the window's size and the recent
 * list are remembered, not chosen); rows write their keys and the changes
 * apply at once: a higher anomaly threshold scores the open trace again
 * with more anomalous waits, the colours switch takes the anomaly colours
 * off the timeline, the timeline's row height follows.
 * Screenshot: preferences.png.
 */
#include "config.h"

#include "ws-anomaly-state.h"
#include "ws-gui-test-util.h"
#include "ws-preferences-window.h"
#include "ws-session.h"
#include "ws-timeline-legend.h"
#include "ws-timeline-view.h"
#include "ws-window.h"

static WsApplication *the_app;

/* The anomaly colours' key, when shown, lies outside the timeline's rows
 * (it sat over the last row's waits, in the timeline's corner). */
static gboolean
anomaly_key_clear_of_rows (WsWindow *window)
{
  GtkWidget *legend = ws_gui_test_find_child (GTK_WIDGET (window), WS_TYPE_TIMELINE_LEGEND);
  GtkWidget *timeline = ws_gui_test_find_child (GTK_WIDGET (window), WS_TYPE_TIMELINE_VIEW);
  graphene_rect_t key, in_window, rows;
  GtkWidget *scroller = gtk_widget_get_ancestor (timeline, GTK_TYPE_SCROLLED_WINDOW);

  g_assert_true (ws_timeline_legend_get_anomaly_key_bounds (WS_TIMELINE_LEGEND (legend), &key));
  g_assert_true (gtk_widget_compute_bounds (legend, GTK_WIDGET (window), &in_window));
  key.origin.x += in_window.origin.x;
  key.origin.y += in_window.origin.y;
  /* Every thread row is drawn inside the timeline's scrolled window. */
  g_assert_true (gtk_widget_compute_bounds (scroller, GTK_WIDGET (window), &rows));
  g_test_message ("anomaly key %.0f,%.0f %.0f×%.0f; rows %.0f,%.0f %.0f×%.0f", key.origin.x, key.origin.y,
                  key.size.width, key.size.height, rows.origin.x, rows.origin.y, rows.size.width, rows.size.height);
  g_assert_true (key.size.width > 0 && key.origin.x + key.size.width <= gtk_widget_get_width (GTK_WIDGET (window)));
  return !graphene_rect_intersection (&key, &rows, NULL);
}

typedef struct {
  WsAnomalyState *state;
  WsDocument     *doc;
  double          threshold;
} Scored;

static gboolean
scored (gpointer data)
{
  Scored *s = data;
  WsAnomalyResult *r = ws_anomaly_state_get_result (s->state);

  return !ws_anomaly_state_get_busy (s->state) && r != NULL && ws_anomaly_state_find_trace (s->state, s->doc) != WS_NONE
         && (s->threshold == 0 || ws_anomaly_result_get_settings (r)->threshold == s->threshold);
}

static GtkWidget *
find_preferences (void)
{
  return GTK_WIDGET (ws_gui_test_find_toplevel (WS_TYPE_PREFERENCES_WINDOW));
}

static gboolean
preferences_shown (gpointer data)
{
  GtkWidget *w = find_preferences ();
  return w != NULL && gtk_widget_get_mapped (w);
}

static void
test_preferences (void)
{
  WsWindow *window = ws_window_new (GTK_APPLICATION (the_app));
  WsSession *session = ws_window_get_session (window);
  GSettings *settings = ws_session_get_settings (session);
  g_autofree char *path = g_build_filename (g_getenv ("WS_TEST_DATA"), "py-locks.perf.txt.gz", NULL);
  g_autoptr(GSettingsSchema) schema = NULL;
  g_auto(GStrv) keys = NULL;
  GtkWidget *prefs, *threshold, *colours, *height;
  WsDocument *doc;
  Scored s;
  guint before, after, red_on, red_off;
  g_autoptr(GdkTexture) on = NULL;
  g_autoptr(GdkTexture) off = NULL;

  g_assert_nonnull (settings);
  gtk_window_present (GTK_WINDOW (window));
  doc = ws_gui_test_open_trace (window, path);
  s = (Scored) { ws_session_get_anomaly_state (session), doc, 0 };
  ws_gui_test_wait_until (scored, &s, 120, "the waits to be scored");
  before = ws_anomaly_result_count_anomalous (ws_anomaly_state_get_result (s.state),
                                              ws_anomaly_state_find_trace (s.state, doc));

  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.preferences", NULL));
  ws_gui_test_wait_until (preferences_shown, NULL, 30, "the Preferences window");
  prefs = find_preferences ();

  /* Every chosen key has a row named after it. */
  g_object_get (settings, "settings-schema", &schema, NULL);
  keys = g_settings_schema_list_keys (schema);
  for (guint i = 0; keys[i] != NULL; i++)
    {
      if (g_str_has_prefix (keys[i], "window-") || g_str_equal (keys[i], "recent-files"))
        continue;
      GtkWidget *row = ws_gui_test_find_named (prefs, keys[i]);

      if (row == NULL)
        g_error ("no row for the setting %s", keys[i]);
      /* A list of choices offers every value its key allows, and shows
       * the one set (the Mining scope once lacked its fifth, default,
       * choice). */
      if (ADW_IS_COMBO_ROW (row))
        {
          g_autoptr(GSettingsSchemaKey) key = g_settings_schema_get_key (schema, keys[i]);
          g_autoptr(GVariant) range = g_settings_schema_key_get_range (key);
          g_autoptr(GVariant) bounds = NULL;
          const char *type;
          guint lo = 0, hi = 0;

          g_variant_get (range, "(&sv)", &type, &bounds);
          g_assert_cmpstr (type, ==, "range");
          g_variant_get (bounds, "(uu)", &lo, &hi);
          g_assert_cmpuint (g_list_model_get_n_items (adw_combo_row_get_model (ADW_COMBO_ROW (row))), ==, hi + 1);
          g_assert_cmpuint (adw_combo_row_get_selected (ADW_COMBO_ROW (row)), ==, g_settings_get_uint (settings, keys[i]));
        }
    }
  ws_gui_test_screenshot (prefs, "preferences");

  /* The threshold, shown in %, applies at once. */
  threshold = ws_gui_test_find_named (prefs, "anomaly-threshold");
  gtk_spin_button_set_value (GTK_SPIN_BUTTON (threshold), 20);
  g_assert_cmpfloat_with_epsilon (g_settings_get_double (settings, "anomaly-threshold"), 0.2, 1e-9);
  s.threshold = 0.2;
  ws_gui_test_wait_until (scored, &s, 120, "the waits to be scored at 20 %");
  after = ws_anomaly_result_count_anomalous (ws_anomaly_state_get_result (s.state),
                                             ws_anomaly_state_find_trace (s.state, doc));
  g_test_message ("anomalous waits: %u at 5 %%, %u at 20 %%", before, after);
  g_assert_cmpuint (after, >, before);

  /* The threshold's spin button shows its whole value ("5.0000"; it
   * showed "5.000(" cut by its own width). */
  {
    GtkWidget *spin = ws_gui_test_find_named (prefs, "anomaly-threshold");
    GtkWidget *text = ws_gui_test_find_child (spin, GTK_TYPE_TEXT);
    AdwPreferencesPage *page = ADW_PREFERENCES_PAGE (gtk_widget_get_ancestor (spin, ADW_TYPE_PREFERENCES_PAGE));
    g_autoptr(PangoLayout) layout = NULL;
    int w = 0;

    adw_preferences_window_set_visible_page (ADW_PREFERENCES_WINDOW (prefs), page);
    gtk_spin_button_set_value (GTK_SPIN_BUTTON (spin), 5);
    g_object_unref (ws_gui_test_screenshot (prefs, "preferences-anomalies"));
    layout = gtk_widget_create_pango_layout (text, gtk_editable_get_text (GTK_EDITABLE (spin)));
    pango_layout_get_pixel_size (layout, &w, NULL);
    g_test_message ("threshold \"%s\": %d px of text in %d px", gtk_editable_get_text (GTK_EDITABLE (spin)), w,
                    gtk_widget_get_width (text));
    g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (spin)), ==, "5.0000");
    g_assert_cmpint (w, <=, gtk_widget_get_width (text));
    g_settings_reset (settings, "anomaly-threshold");
  }

  /* The colours switch: off to start with, then on. */
  colours = ws_gui_test_find_named (prefs, "anomaly-colours");
  g_assert_false (gtk_switch_get_active (GTK_SWITCH (colours)));
  {
    graphene_rect_t key;
    g_assert_false (ws_timeline_legend_get_anomaly_key_bounds (
      WS_TIMELINE_LEGEND (ws_gui_test_find_child (GTK_WIDGET (window), WS_TYPE_TIMELINE_LEGEND)), &key));
  }
  gtk_switch_set_active (GTK_SWITCH (colours), TRUE);
  g_assert_true (g_settings_get_boolean (settings, "anomaly-colours"));
  ws_gui_test_settle (GTK_WIDGET (window));   /* the legend laid out with its new key */
  g_assert_true (anomaly_key_clear_of_rows (window));
  on = ws_gui_test_screenshot (GTK_WIDGET (window), "preferences-colours-on");
  red_on = ws_gui_test_count_colour (GTK_WIDGET (window), on,
                                     ws_gui_test_find_child (GTK_WIDGET (window), WS_TYPE_TIMELINE_VIEW), 0xe01b24, 10);
  gtk_switch_set_active (GTK_SWITCH (colours), FALSE);
  g_assert_false (g_settings_get_boolean (settings, "anomaly-colours"));
  off = ws_gui_test_screenshot (GTK_WIDGET (window), "preferences-colours-off");
  red_off = ws_gui_test_count_colour (GTK_WIDGET (window), off,
                                      ws_gui_test_find_child (GTK_WIDGET (window), WS_TYPE_TIMELINE_VIEW), 0xe01b24, 10);
  g_test_message ("anomaly red in the timeline: %u with colours, %u without", red_on, red_off);
  g_assert_cmpuint (red_off, <, red_on);

  /* Row height. */
  height = ws_gui_test_find_named (prefs, "timeline-row-height");
  gtk_spin_button_set_value (GTK_SPIN_BUTTON (height), 30);
  g_assert_cmpint (g_settings_get_int (settings, "timeline-row-height"), ==, 30);

  g_settings_reset (settings, "anomaly-threshold");
  g_settings_reset (settings, "anomaly-colours");
  g_settings_reset (settings, "timeline-row-height");
  gtk_window_destroy (GTK_WINDOW (prefs));
  ws_gui_test_close_window (GTK_WIDGET (window));
}

int
main (int   argc,
      char *argv[])
{
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("ws-gui-prefs-XXXXXX", &error);
  g_autofree char *history = g_build_filename (dir, "history.sqlite", NULL);
  int status;

  g_setenv ("WAITSCOPE_HISTORY", history, TRUE);
  the_app = ws_gui_test_init (&argc, &argv);
  g_test_add_func ("/gui/preferences", test_preferences);
  status = g_test_run ();
  g_object_unref (the_app);
  return status;
}
