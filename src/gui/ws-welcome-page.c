/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The welcome page (ws-welcome-page.h).  Built in code: its recent lists
 * follow GSettings, and the record line comes from the core recorder, so
 * that the line shown is the one the Record page and the CLI run.
 */
#include "config.h"

#include <adwaita.h>
#include <glib/gi18n.h>

#include "ws-record-settings.h"
#include "ws-welcome-page.h"

#define MAX_RECENT_SHOWN 6

struct _WsWelcomePage
{
  GtkWidget   parent_instance;
  GtkWidget  *scroller;
  GtkLabel   *record_label;
  GtkWidget  *sessions_box;
  GtkListBox *sessions_list;
  GtkWidget  *traces_box;
  GtkListBox *traces_list;
  GSettings  *settings;
  char       *record_line;
};

G_DEFINE_FINAL_TYPE (WsWelcomePage, ws_welcome_page, GTK_TYPE_WIDGET)

static void
clear_list (GtkListBox *list)
{
  GtkWidget *child;

  while ((child = gtk_widget_get_first_child (GTK_WIDGET (list))) != NULL)
    gtk_list_box_remove (list, child);
}

/* "~/traces" rather than "/home/me/traces", valid UTF-8 whatever bytes
 * the file system holds. */
static char *
display_dir (GFile *file)
{
  g_autoptr(GFile) parent = g_file_get_parent (file);
  g_autofree char *path = parent ? g_file_get_path (parent) : NULL;
  const char *home = g_get_home_dir ();

  if (path == NULL)
    return parent ? g_file_get_parse_name (parent) : g_strdup ("");
  if (g_str_has_prefix (path, home) && (path[strlen (home)] == '/' || path[strlen (home)] == '\0'))
    {
      g_autofree char *rest = g_filename_display_name (path + strlen (home));
      return g_strconcat ("~", rest, NULL);
    }
  return g_filename_display_name (path);
}

/* The file's name as text (its bytes need not be UTF-8). */
static char *
display_name (GFile *file)
{
  g_autofree char *path = g_file_get_path (file);

  if (path != NULL)
    return g_filename_display_basename (path);
  return g_file_get_parse_name (file);
}

static GtkWidget *
recent_row (const char *uri,
            gboolean    session)
{
  g_autoptr(GFile) file = g_file_new_for_uri (uri);
  g_autofree char *name = display_name (file);
  g_autofree char *dir = display_dir (file);
  GtkWidget *row = adw_action_row_new ();
  GtkWidget *icon = gtk_image_new_from_icon_name (session ? "view-list-bullet-symbolic" : "document-open-recent-symbolic");
  GtkWidget *arrow = gtk_image_new_from_icon_name ("go-next-symbolic");

  /* Plain text: a file name may hold "&" or "<". */
  adw_preferences_row_set_use_markup (ADW_PREFERENCES_ROW (row), FALSE);
  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), name);
  adw_action_row_set_subtitle (ADW_ACTION_ROW (row), dir);
  adw_action_row_add_prefix (ADW_ACTION_ROW (row), icon);
  adw_action_row_add_suffix (ADW_ACTION_ROW (row), arrow);
  gtk_list_box_row_set_activatable (GTK_LIST_BOX_ROW (row), TRUE);
  gtk_actionable_set_action_name (GTK_ACTIONABLE (row), "app.open-recent");
  gtk_actionable_set_action_target (GTK_ACTIONABLE (row), "s", uri);
  gtk_widget_set_tooltip_text (row, uri);
  return row;
}

/* The recent list split in two: sessions (.waitscope) and traces.  Local
 * files that are gone are left out. */
static void
update_recent (WsWelcomePage *self)
{
  g_auto(GStrv) recent = NULL;
  guint n_sessions = 0, n_traces = 0;

  clear_list (self->sessions_list);
  clear_list (self->traces_list);
  recent = self->settings ? g_settings_get_strv (self->settings, "recent-files") : g_new0 (char *, 1);
  for (guint i = 0; recent[i] != NULL; i++)
    {
      g_autoptr(GFile) file = g_file_new_for_uri (recent[i]);
      gboolean session = g_str_has_suffix (recent[i], ".waitscope");
      guint *n = session ? &n_sessions : &n_traces;

      if (*n >= MAX_RECENT_SHOWN || (g_file_is_native (file) && !g_file_query_exists (file, NULL)))
        continue;
      gtk_list_box_append (session ? self->sessions_list : self->traces_list, recent_row (recent[i], session));
      (*n)++;
    }
  gtk_widget_set_visible (self->sessions_box, n_sessions > 0);
  gtk_widget_set_visible (self->traces_box, n_traces > 0);
}

void
ws_welcome_page_set_settings (WsWelcomePage *self,
                              GSettings     *settings)
{
  g_return_if_fail (WS_IS_WELCOME_PAGE (self));

  if (self->settings != NULL)
    g_signal_handlers_disconnect_by_data (self->settings, self);
  g_set_object (&self->settings, settings);
  if (settings != NULL)
    g_signal_connect_swapped (settings, "changed::recent-files", G_CALLBACK (update_recent), self);
  update_recent (self);
}

/* Returns: (transfer none): the recent sessions' or traces' list, for tests */
GtkListBox *
ws_welcome_page_get_recent_list (WsWelcomePage *self,
                                 gboolean       sessions)
{
  return sessions ? self->sessions_list : self->traces_list;
}

const char *
ws_welcome_page_get_record_line (WsWelcomePage *self)
{
  return self->record_line;
}

static void
copy_clicked (WsWelcomePage *self)
{
  gdk_clipboard_set_text (gtk_widget_get_clipboard (GTK_WIDGET (self)), self->record_line);
}

static GtkWidget *
pill (const char *label,
      const char *action,
      gboolean    suggested)
{
  GtkWidget *button = gtk_button_new_with_mnemonic (label);

  gtk_actionable_set_action_name (GTK_ACTIONABLE (button), action);
  gtk_widget_add_css_class (button, "pill");
  if (suggested)
    gtk_widget_add_css_class (button, "suggested-action");
  return button;
}

static GtkWidget *
heading (const char *text)
{
  GtkWidget *label = gtk_label_new (text);

  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_widget_add_css_class (label, "heading");
  return label;
}

static GtkWidget *
dim_wrapped (const char *text)
{
  GtkWidget *label = gtk_label_new (text);

  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_label_set_wrap (GTK_LABEL (label), TRUE);
  gtk_widget_add_css_class (label, "dim-label");
  return label;
}

static GtkWidget *
build_header (void)
{
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 12);
  GtkWidget *icon = gtk_image_new_from_icon_name ("io.github.waitscope.Waitscope-symbolic");
  GtkWidget *title = gtk_label_new (_("Why Do Threads Wait?"));
  GtkWidget *text = gtk_label_new (_("Open a perf recording of scheduler events with call stacks "
                                     "(perf.data, or perf script text, plain or gzip), a Waitscope "
                                     "JSON trace or a saved session — drop it here — or record one now."));
  GtkWidget *buttons = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 12);
  GtkWidget *fleet;

  gtk_image_set_pixel_size (GTK_IMAGE (icon), 96);
  gtk_widget_add_css_class (icon, "dim-label");
  gtk_widget_add_css_class (title, "title-1");
  gtk_label_set_wrap (GTK_LABEL (title), TRUE);
  gtk_label_set_wrap (GTK_LABEL (text), TRUE);
  gtk_label_set_justify (GTK_LABEL (text), GTK_JUSTIFY_CENTER);
  gtk_widget_set_halign (buttons, GTK_ALIGN_CENTER);
  gtk_box_append (GTK_BOX (buttons), pill (_("_Open a Trace…"), "win.open", TRUE));
  gtk_box_append (GTK_BOX (buttons), pill (_("_Record a Trace…"), "win.record", FALSE));
  gtk_box_append (GTK_BOX (buttons), pill (_("Try the _Demo Trace"), "app.open-demo", FALSE));
  gtk_box_append (GTK_BOX (box), icon);
  gtk_box_append (GTK_BOX (box), title);
  gtk_box_append (GTK_BOX (box), text);
  gtk_box_append (GTK_BOX (box), buttons);
  /* Many traces mined together, none held: a quieter second line. */
  fleet = gtk_button_new_with_mnemonic (_("Open Many Traces as a _Fleet…"));
  gtk_actionable_set_action_name (GTK_ACTIONABLE (fleet), "win.open-fleet");
  gtk_widget_set_tooltip_text (fleet, _("Mine and contrast many traces without holding them (Ctrl+Shift+F)"));
  gtk_widget_add_css_class (fleet, "flat");
  gtk_widget_set_halign (fleet, GTK_ALIGN_CENTER);
  gtk_box_append (GTK_BOX (box), fleet);
  return box;
}

static GtkWidget *
build_record_hint (WsWelcomePage *self)
{
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 6);
  GtkWidget *line = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  GtkWidget *copy = gtk_button_new_from_icon_name ("edit-copy-symbolic");

  self->record_label = GTK_LABEL (gtk_label_new (self->record_line));
  gtk_label_set_selectable (self->record_label, TRUE);
  gtk_label_set_wrap (self->record_label, TRUE);
  gtk_label_set_wrap_mode (self->record_label, PANGO_WRAP_WORD_CHAR);
  gtk_label_set_xalign (self->record_label, 0);
  gtk_widget_set_hexpand (GTK_WIDGET (self->record_label), TRUE);
  gtk_widget_add_css_class (GTK_WIDGET (self->record_label), "monospace");
  gtk_widget_add_css_class (GTK_WIDGET (self->record_label), "card");
  gtk_widget_add_css_class (GTK_WIDGET (self->record_label), "ws-record-line");
  gtk_widget_set_tooltip_text (copy, _("Copy the command"));
  gtk_accessible_update_property (GTK_ACCESSIBLE (copy), GTK_ACCESSIBLE_PROPERTY_LABEL, _("Copy the command"), -1);
  gtk_widget_set_valign (copy, GTK_ALIGN_CENTER);
  gtk_widget_add_css_class (copy, "flat");
  g_signal_connect_swapped (copy, "clicked", G_CALLBACK (copy_clicked), self);
  gtk_box_append (GTK_BOX (line), GTK_WIDGET (self->record_label));
  gtk_box_append (GTK_BOX (line), copy);
  gtk_box_append (GTK_BOX (box), heading (_("Record waits with call stacks")));
  gtk_box_append (GTK_BOX (box), line);
  gtk_box_append (GTK_BOX (box),
                  dim_wrapped (_("As root, while the program is slow: the scheduler's switches and wake-ups "
                                 "with their call stacks, and CPU samples, of the whole system for 5 s. "
                                 "Then open perf.data here. A profile of CPU samples alone shows no waits.")));
  return box;
}

static GtkWidget *
build_recent (const char  *title,
              GtkWidget  **box_out,
              GtkListBox **list_out)
{
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 6);
  GtkWidget *list = gtk_list_box_new ();

  gtk_list_box_set_selection_mode (GTK_LIST_BOX (list), GTK_SELECTION_NONE);
  gtk_widget_add_css_class (list, "boxed-list");
  gtk_accessible_update_property (GTK_ACCESSIBLE (list), GTK_ACCESSIBLE_PROPERTY_LABEL, title, -1);
  gtk_box_append (GTK_BOX (box), heading (title));
  gtk_box_append (GTK_BOX (box), list);
  gtk_widget_set_visible (box, FALSE);
  *box_out = box;
  *list_out = GTK_LIST_BOX (list);
  return box;
}

static void
ws_welcome_page_init (WsWelcomePage *self)
{
  g_autoptr(WsRecordSettings) record = ws_record_settings_new ();
  GtkWidget *clamp = adw_clamp_new ();
  GtkWidget *content = gtk_box_new (GTK_ORIENTATION_VERTICAL, 24);

  record->output = g_strdup ("perf.data");
  self->record_line = ws_record_settings_format (record);

  self->scroller = gtk_scrolled_window_new ();
  gtk_scrolled_window_set_policy (GTK_SCROLLED_WINDOW (self->scroller), GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC);
  gtk_widget_set_parent (self->scroller, GTK_WIDGET (self));
  adw_clamp_set_maximum_size (ADW_CLAMP (clamp), 720);
  gtk_widget_set_margin_top (content, 36);
  gtk_widget_set_margin_bottom (content, 36);
  gtk_widget_set_margin_start (content, 18);
  gtk_widget_set_margin_end (content, 18);
  gtk_box_append (GTK_BOX (content), build_header ());
  gtk_box_append (GTK_BOX (content), build_recent (_("Recent Sessions"), &self->sessions_box, &self->sessions_list));
  gtk_box_append (GTK_BOX (content), build_recent (_("Recent Traces"), &self->traces_box, &self->traces_list));
  gtk_box_append (GTK_BOX (content), build_record_hint (self));
  adw_clamp_set_child (ADW_CLAMP (clamp), content);
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (self->scroller), clamp);
}

static void
ws_welcome_page_dispose (GObject *object)
{
  WsWelcomePage *self = WS_WELCOME_PAGE (object);

  if (self->settings != NULL)
    g_signal_handlers_disconnect_by_data (self->settings, self);
  g_clear_object (&self->settings);
  g_clear_pointer (&self->scroller, gtk_widget_unparent);
  G_OBJECT_CLASS (ws_welcome_page_parent_class)->dispose (object);
}

static void
ws_welcome_page_finalize (GObject *object)
{
  g_free (WS_WELCOME_PAGE (object)->record_line);
  G_OBJECT_CLASS (ws_welcome_page_parent_class)->finalize (object);
}

static void
ws_welcome_page_class_init (WsWelcomePageClass *klass)
{
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  G_OBJECT_CLASS (klass)->dispose = ws_welcome_page_dispose;
  G_OBJECT_CLASS (klass)->finalize = ws_welcome_page_finalize;
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "welcome");
}
