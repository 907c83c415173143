/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <glib/gi18n.h>

#include "ws-application.h"
#include "ws-timing.h"
#include "ws-window.h"

#define SCHEMA_ID "io.github.waitscope.Waitscope"

struct _WsApplication
{
  AdwApplication  parent_instance;
  GSettings      *settings;
};

G_DEFINE_FINAL_TYPE (WsApplication, ws_application, ADW_TYPE_APPLICATION)

enum {
  PROP_0,
  PROP_SETTINGS,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

/**
 * ws_application_get_demo_file:
 *
 * Returns: (transfer full): the bundled demo trace: installed, or in the
 *   source tree when running from the build directory
 */
GFile *
ws_application_get_demo_file (void)
{
  g_autofree char *installed = g_build_filename (PKGDATADIR, "demo", "py-locks.perf.txt.gz", NULL);

  if (g_file_test (installed, G_FILE_TEST_EXISTS))
    return g_file_new_for_path (installed);
  return g_file_new_for_path (SOURCE_DATADIR "/demo/py-locks.perf.txt.gz");
}

static WsWindow *
get_window (WsApplication *self,
            gboolean       create)
{
  GtkWindow *window = gtk_application_get_active_window (GTK_APPLICATION (self));

  if (window == NULL && create)
    window = GTK_WINDOW (ws_window_new (GTK_APPLICATION (self)));
  return window ? WS_WINDOW (window) : NULL;
}

static void
ws_application_activate (GApplication *app)
{
  WsApplication *self = WS_APPLICATION (app);
  WsWindow *window = get_window (self, FALSE);

  /* A plain start shows the welcome page (open, record, the demo, the
   * recent files): opening the demo every time hid the user's own work. */
  if (window == NULL)
    window = get_window (self, TRUE);
  gtk_window_present (GTK_WINDOW (window));
}

static void
ws_application_open (GApplication  *app,
                     GFile        **files,
                     int            n_files,
                     const char    *hint)
{
  WsWindow *window;

  ws_timing_mark ("open-called");
  window = get_window (WS_APPLICATION (app), TRUE);
  ws_timing_mark ("window-built");
  for (int i = 0; i < n_files; i++)
    ws_window_open_file (window, files[i]);
  gtk_window_present (GTK_WINDOW (window));
}

static void
about_action (GSimpleAction *action,
              GVariant      *param,
              gpointer       user_data)
{
  WsApplication *self = user_data;
  static const char *developers[] = { "The Waitscope authors", NULL };

  adw_show_about_window (gtk_application_get_active_window (GTK_APPLICATION (self)),
                         "application-name", _("Waitscope"),
                         "application-icon", APP_ID,
                         "version", PACKAGE_VERSION,
                         "comments", _("Find out why threads wait, across many execution traces"),
                         "developers", developers,
                         "license-type", GTK_LICENSE_GPL_3_0,
                         "website", "https://github.com/waitscope/waitscope",
                         NULL);
}

static void
quit_action (GSimpleAction *action,
             GVariant      *param,
             gpointer       user_data)
{
  GList *windows = g_list_copy (gtk_application_get_windows (GTK_APPLICATION (user_data)));

  /* Close windows properly, so they save their size; a window with
   * unsaved findings asks first (Save / Discard / Cancel) and stays open
   * if the user cancels. */
  for (GList *l = windows; l != NULL; l = l->next)
    gtk_window_close (l->data);
  g_list_free (windows);
}

static void
open_recent_action (GSimpleAction *action,
                    GVariant      *param,
                    gpointer       user_data)
{
  g_autoptr(GFile) file = g_file_new_for_uri (g_variant_get_string (param, NULL));

  ws_window_open_file (get_window (user_data, TRUE), file);
}

static void
open_demo_action (GSimpleAction *action,
                  GVariant      *param,
                  gpointer       user_data)
{
  g_autoptr(GFile) demo = ws_application_get_demo_file ();

  ws_window_open_file (get_window (user_data, TRUE), demo);
}

static void
new_window_action (GSimpleAction *action,
                   GVariant      *param,
                   gpointer       user_data)
{
  gtk_window_present (GTK_WINDOW (ws_window_new (GTK_APPLICATION (user_data))));
}

static const GActionEntry app_actions[] = {
  { "about", about_action },
  { "quit", quit_action },
  { "new-window", new_window_action },
  { "open-recent", open_recent_action, "s" },
  { "open-demo", open_demo_action },
};

/* Running from the build directory, the schema is not installed: use the
 * one compiled next to the build (SCHEMA_BUILDDIR), so that "build/src/gui/
 * waitscope FILE" works without installing anything. */
static GSettings *
create_settings (void)
{
  GSettingsSchemaSource *source = g_settings_schema_source_get_default ();
  g_autoptr(GSettingsSchema) schema = source ? g_settings_schema_source_lookup (source, SCHEMA_ID, TRUE) : NULL;

  if (schema == NULL)
    {
      g_autoptr(GSettingsSchemaSource) local =
        g_settings_schema_source_new_from_directory (SCHEMA_BUILDDIR, source, FALSE, NULL);
      if (local != NULL)
        schema = g_settings_schema_source_lookup (local, SCHEMA_ID, FALSE);
    }
  if (schema == NULL)
    {
      g_warning ("GSettings schema %s not found; settings will not be kept", SCHEMA_ID);
      return NULL;
    }
  return g_settings_new_full (schema, NULL, NULL);
}

static void
ws_application_startup (GApplication *app)
{
  WsApplication *self = WS_APPLICATION (app);
  static const struct { const char *action; const char *accels[3]; } accels[] = {
    { "app.quit", { "<Control>q", NULL } },
    { "app.new-window", { "<Control>n", NULL } },
    { "win.open", { "<Control>o", NULL } },
    { "win.record", { "<Control>r", NULL } },
    { "win.close-trace", { "<Control>w", NULL } },
    { "win.export-timeline", { "<Control>e", NULL } },
    { "win.search", { "<Control>f", NULL } },
    { "win.search-next", { "<Control>g", NULL } },
    { "win.search-previous", { "<Control><Shift>g", NULL } },
    { "win.zoom-in", { "<Control>plus", "<Control>equal", NULL } },
    { "win.zoom-out", { "<Control>minus", NULL } },
    { "win.zoom-fit", { "<Control>0", NULL } },
    { "win.zoom-back", { "<Alt>Left", NULL } },
    { "win.toggle-sidebar", { "F9", NULL } },
    { "win.flag-anomalous", { "<Control><Alt>a", NULL } },
    { "win.flag-normal", { "<Control><Alt>n", NULL } },
    { "win.unflag", { "<Control><Alt>u", NULL } },
    { "win.undo-flag", { "<Control><Alt>z", NULL } },
    { "win.show-wait-model", { "<Control><Alt>m", NULL } },
    { "win.show-flags", { "<Control><Alt>l", NULL } },
    { "win.anomaly-colours", { "<Control><Alt>c", NULL } },
    { "win.preferences", { "<Control>comma", NULL } },
    { "win.pin-view", { "<Control>d", NULL } },
    { "win.save-session", { "<Control>s", NULL } },
    { "win.open-session", { "<Control><Shift>o", NULL } },
    { "win.open-fleet", { "<Control><Shift>f", NULL } },
    { "win.present", { "F5", NULL } },
    { "win.show-wait-graph", { "<Control><Shift>w", NULL } },
    { "win.show-ready-tree", { "<Control><Shift>r", NULL } },
    { "win.show-critical-path", { "<Control><Shift>p", NULL } },
    { "win.details-page::overview", { "<Alt>1", NULL } },
    { "win.details-page::details", { "<Alt>2", NULL } },
    { "win.details-page::threads", { "<Alt>3", NULL } },
    { "win.details-page::graph", { "<Alt>4", NULL } },
    { "win.details-page::mining", { "<Alt>5", NULL } },
    { "win.details-page::contrast", { "<Alt>6", NULL } },
    { "win.details-page::findings", { "<Alt>7", NULL } },
    { "win.details-page::pivot", { "<Alt>8", NULL } },
    { "win.details-page::flame", { "<Alt>9", NULL } },
    { "win.show-slowest", { "<Control>l", NULL } },
  };

  G_APPLICATION_CLASS (ws_application_parent_class)->startup (app);

  self->settings = create_settings ();
  g_action_map_add_action_entries (G_ACTION_MAP (self), app_actions, G_N_ELEMENTS (app_actions), self);
  if (self->settings != NULL)
    {
      g_autoptr(GAction) record = g_settings_create_action (self->settings, "record-history");
      g_action_map_add_action (G_ACTION_MAP (self), record);
    }
  for (guint i = 0; i < G_N_ELEMENTS (accels); i++)
    gtk_application_set_accels_for_action (GTK_APPLICATION (self), accels[i].action, accels[i].accels);
}

static void
ws_application_dispose (GObject *object)
{
  g_clear_object (&WS_APPLICATION (object)->settings);
  G_OBJECT_CLASS (ws_application_parent_class)->dispose (object);
}

static void
ws_application_get_property (GObject    *object,
                             guint       prop_id,
                             GValue     *value,
                             GParamSpec *pspec)
{
  switch (prop_id)
    {
    case PROP_SETTINGS:
      g_value_set_object (value, WS_APPLICATION (object)->settings);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
ws_application_class_init (WsApplicationClass *klass)
{
  GApplicationClass *app_class = G_APPLICATION_CLASS (klass);

  G_OBJECT_CLASS (klass)->dispose = ws_application_dispose;
  G_OBJECT_CLASS (klass)->get_property = ws_application_get_property;

  /* How windows find the settings without knowing this class. */
  properties[PROP_SETTINGS] =
    g_param_spec_object ("settings", NULL, NULL, G_TYPE_SETTINGS,
                         G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  g_object_class_install_properties (G_OBJECT_CLASS (klass), N_PROPS, properties);
  app_class->activate = ws_application_activate;
  app_class->open = ws_application_open;
  app_class->startup = ws_application_startup;
}

static void
ws_application_init (WsApplication *self)
{
}

WsApplication *
ws_application_new (void)
{
  return g_object_new (WS_TYPE_APPLICATION,
                       "application-id", APP_ID,
                       "flags", G_APPLICATION_HANDLES_OPEN,
                       /* The same resources for the .Devel flavour. */
                       "resource-base-path", "/io/github/waitscope/Waitscope",
                       NULL);
}

/**
 * ws_application_get_settings:
 * Returns: (transfer none) (nullable): %NULL if the schema is missing
 */
GSettings *
ws_application_get_settings (WsApplication *self)
{
  g_return_val_if_fail (WS_IS_APPLICATION (self), NULL);
  return self->settings;
}
