/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <string.h>

#include "ws-graph-page.h"
#include "ws-mining-page.h"
#include "ws-gui-test-util.h"
#include "ws-timeline-view.h"

/*
 * The keyboard shortcuts window (resources/gtk/help-overlay.ui) against
 * the accelerators the program really has: every accelerator registered
 * with the application and every key binding a widget class installs must
 * be listed in it, and everything it lists must parse.
 */

#define OVERLAY_PATH "/io/github/waitscope/Waitscope/gtk/help-overlay.ui"

typedef struct
{
  guint           keyval;
  GdkModifierType mods;
} Key;

typedef struct
{
  GArray    *keys;     /* Key: every key in an "accelerator" property */
  GPtrArray *actions;  /* char *: every "action-name" property */
} Overlay;

/* The keypad's twin of a key is that key: the shortcuts window lists
 * "+", not "+ / +" (KP_Add looked like a duplicated row). */
static guint
main_key (guint keyval)
{
  switch (keyval)
    {
    case GDK_KEY_KP_Add:      return GDK_KEY_plus;
    case GDK_KEY_KP_Subtract: return GDK_KEY_minus;
    case GDK_KEY_KP_0:        return GDK_KEY_0;
    case GDK_KEY_KP_Enter:    return GDK_KEY_Return;
    default:                  return keyval;
    }
}

static Key
make_key (guint           keyval,
          GdkModifierType mods)
{
  Key key = { gdk_keyval_to_lower (main_key (keyval)), mods & gtk_accelerator_get_default_mod_mask () };

  return key;
}

static void
load_overlay (Overlay *overlay)
{
  g_autoptr(GtkBuilder) builder = gtk_builder_new_from_resource (OVERLAY_PATH);
  g_autoptr(GSList) objects = gtk_builder_get_objects (builder);
  guint n_shortcuts = 0;

  g_assert_nonnull (gtk_builder_get_object (builder, "help_overlay"));
  overlay->keys = g_array_new (FALSE, FALSE, sizeof (Key));
  overlay->actions = g_ptr_array_new_with_free_func (g_free);
  for (GSList *l = objects; l != NULL; l = l->next)
    {
      g_autofree char *accelerator = NULL;
      g_autofree char *action = NULL;
      g_auto(GStrv) parts = NULL;

      if (!GTK_IS_SHORTCUTS_SHORTCUT (l->data))
        continue;
      n_shortcuts++;
      g_object_get (l->data, "accelerator", &accelerator, "action-name", &action, NULL);
      if (action != NULL)
        g_ptr_array_add (overlay->actions, g_steal_pointer (&action));
      if (accelerator == NULL)
        continue;
      parts = g_strsplit (accelerator, " ", -1);
      /* No row shows one key twice ("+ / = / +": plus and the keypad's). */
      for (guint i = 0; parts[i] != NULL; i++)
        for (guint j = i + 1; parts[j] != NULL; j++)
          {
            guint a, b;
            GdkModifierType ma, mb;
            g_autofree char *la = NULL, *lb = NULL;

            if (!gtk_accelerator_parse (parts[i], &a, &ma) || !gtk_accelerator_parse (parts[j], &b, &mb))
              continue;
            la = gtk_accelerator_get_label (a, ma);
            lb = gtk_accelerator_get_label (b, mb);
            if (g_strcmp0 (la, lb) == 0)
              g_error ("the shortcuts row \"%s\" shows \"%s\" twice", accelerator, la);
          }
      for (guint i = 0; parts[i] != NULL; i++)
        {
          guint keyval;
          GdkModifierType mods;
          Key key;

          if (parts[i][0] == '\0')
            continue;
          /* "<Alt>1...7": a range of keys, as GtkShortcutLabel shows it. */
          if (strstr (parts[i], "...") != NULL)
            {
              g_auto(GStrv) ends = g_strsplit (parts[i], "...", 2);
              guint last;

              if (!gtk_accelerator_parse (ends[0], &keyval, &mods) || !gtk_accelerator_parse (ends[1], &last, NULL) ||
                  last < keyval || last - keyval > 20)
                g_error ("the shortcuts window lists the range \"%s\", which does not parse", parts[i]);
              for (; keyval <= last; keyval++)
                {
                  key = make_key (keyval, mods);
                  g_array_append_val (overlay->keys, key);
                }
              continue;
            }
          if (!gtk_accelerator_parse (parts[i], &keyval, &mods))
            g_error ("the shortcuts window lists \"%s\", which does not parse", parts[i]);
          key = make_key (keyval, mods);
          g_array_append_val (overlay->keys, key);
        }
    }
  /* Sanity: the file was read, not an empty interface. */
  g_assert_cmpuint (n_shortcuts, >=, 40);
}

static void
overlay_clear (Overlay *overlay)
{
  g_array_unref (overlay->keys);
  g_ptr_array_unref (overlay->actions);
}

static gboolean
overlay_has_key (Overlay *overlay,
                 Key      key)
{
  for (guint i = 0; i < overlay->keys->len; i++)
    {
      Key *k = &g_array_index (overlay->keys, Key, i);

      if (k->keyval == key.keyval && k->mods == key.mods)
        return TRUE;
    }
  return FALSE;
}

static gboolean
overlay_has_action (Overlay    *overlay,
                    const char *action)
{
  for (guint i = 0; i < overlay->actions->len; i++)
    if (strcmp (g_ptr_array_index (overlay->actions, i), action) == 0)
      return TRUE;
  return FALSE;
}

static WsApplication *app;

/* Every accelerator of the application: either its action is listed by
 * name (the window then shows the application's own accelerators) or the
 * key is written out in an entry. */
static void
test_application_accels (void)
{
  Overlay overlay;
  g_auto(GStrv) actions = gtk_application_list_action_descriptions (GTK_APPLICATION (app));
  guint n_accels = 0;

  load_overlay (&overlay);
  g_assert_nonnull (actions);
  for (guint i = 0; actions[i] != NULL; i++)
    {
      g_auto(GStrv) accels = gtk_application_get_accels_for_action (GTK_APPLICATION (app), actions[i]);

      for (guint j = 0; accels[j] != NULL; j++)
        {
          guint keyval;
          GdkModifierType mods;

          n_accels++;
          g_test_message ("%s: %s", actions[i], accels[j]);
          g_assert_true (gtk_accelerator_parse (accels[j], &keyval, &mods));
          if (!overlay_has_action (&overlay, actions[i]) && !overlay_has_key (&overlay, make_key (keyval, mods)))
            g_error ("%s (%s) is not in the shortcuts window", accels[j], actions[i]);
        }
    }
  /* ws-application.c registers 41 accelerators for 40 actions (Ctrl+R
   * the Record page, Ctrl+Shift+F opening traces as a fleet, 7 of them
   * the anomaly flags' and views', 3 the analyses of the selected window,
   * 9 the pages of the lower pane, Ctrl+L the Slowest list, Ctrl+comma
   * Preferences), and GtkApplication adds Ctrl+? for win.show-help-overlay. */
  g_assert_cmpuint (n_accels, ==, 42);

  /* And the reverse: an entry naming an action without an accelerator
   * would show an empty row. */
  for (guint i = 0; i < overlay.actions->len; i++)
    {
      const char *action = g_ptr_array_index (overlay.actions, i);
      g_auto(GStrv) accels = gtk_application_get_accels_for_action (GTK_APPLICATION (app), action);

      if (accels[0] == NULL)
        g_error ("the shortcuts window names %s, which has no accelerator", action);
    }
  overlay_clear (&overlay);
}

/* The key bindings a widget class installs end up in a shortcut
 * controller of each instance; all of them must be listed. */
static guint
check_class_bindings (Overlay   *overlay,
                      GtkWidget *widget)
{
  g_autoptr(GListModel) controllers = gtk_widget_observe_controllers (widget);
  guint n_bindings = 0;

  for (guint i = 0; i < g_list_model_get_n_items (controllers); i++)
    {
      g_autoptr(GtkEventController) controller = g_list_model_get_item (controllers, i);
      GListModel *shortcuts;

      if (!GTK_IS_SHORTCUT_CONTROLLER (controller))
        continue;
      shortcuts = G_LIST_MODEL (controller);
      for (guint j = 0; j < g_list_model_get_n_items (shortcuts); j++)
        {
          g_autoptr(GtkShortcut) shortcut = g_list_model_get_item (shortcuts, j);
          GtkShortcutTrigger *trigger = gtk_shortcut_get_trigger (shortcut);
          Key key;

          if (!GTK_IS_KEYVAL_TRIGGER (trigger))
            continue;
          key = make_key (gtk_keyval_trigger_get_keyval (GTK_KEYVAL_TRIGGER (trigger)),
                          gtk_keyval_trigger_get_modifiers (GTK_KEYVAL_TRIGGER (trigger)));
          n_bindings++;
          if (!overlay_has_key (overlay, key))
            {
              g_autofree char *name = gtk_accelerator_name (key.keyval, key.mods);

              g_error ("%s of %s is not in the shortcuts window", name, G_OBJECT_TYPE_NAME (widget));
            }
        }
    }
  return n_bindings;
}

static void
test_widget_bindings (void)
{
  Overlay overlay;
  GtkWidget *timeline = g_object_ref_sink (ws_timeline_view_new ());
  GtkWidget *graph = g_object_ref_sink (ws_graph_page_new ());
  GtkWidget *mining = g_object_ref_sink (ws_mining_page_new ());

  load_overlay (&overlay);
  /* ws_timeline_view_class_init binds 14 keys (Menu and Shift+F10 open a
   * wait's context menu) and ws_timeline_keys_install 10 more,
   * ws_graph_page_class_init 5, ws_mining_page_class_init 2. */
  g_assert_cmpuint (check_class_bindings (&overlay, timeline), ==, 24);
  g_assert_cmpuint (check_class_bindings (&overlay, graph), ==, 5);
  g_assert_cmpuint (check_class_bindings (&overlay, mining), ==, 2);
  g_object_unref (timeline);
  g_object_unref (graph);
  g_object_unref (mining);
  overlay_clear (&overlay);
}

/* The window itself builds with the application's accelerators. */
static void
test_overlay_builds (void)
{
  g_autoptr(GtkBuilder) builder = gtk_builder_new_from_resource (OVERLAY_PATH);
  GObject *window = gtk_builder_get_object (builder, "help_overlay");

  g_assert_true (GTK_IS_SHORTCUTS_WINDOW (window));
  gtk_window_destroy (GTK_WINDOW (window));
}

int
main (int   argc,
      char *argv[])
{
  int status;

  app = ws_gui_test_init (&argc, &argv);
  g_test_add_func ("/gui/shortcuts/overlay-builds", test_overlay_builds);
  g_test_add_func ("/gui/shortcuts/application-accels", test_application_accels);
  g_test_add_func ("/gui/shortcuts/widget-bindings", test_widget_bindings);
  status = g_test_run ();
  g_object_unref (app);
  return status;
}
