/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The chips that mark traces slow or fast (ws-run-class-chips.h).
 */
#include "config.h"

#include <glib/gi18n.h>

#include "ws-chooser-folder.h"
#include "ws-run-class-chips.h"

struct _WsRunClassChips
{
  GtkWidget     parent_instance;

  /* Children */
  GtkWidget    *box;          /* the header row, the error, the chips */
  GtkLabel     *count_label;
  GtkLabel     *error_label;
  GtkFlowBox   *flow;

  /* Owned references */
  WsRunClasses *classes;
  GStrv         paths;
  GStrv         names;
  gboolean      first_fast;
  gboolean      writing;      /* our own change: the chips are already right */
};

G_DEFINE_FINAL_TYPE (WsRunClassChips, ws_run_class_chips, GTK_TYPE_WIDGET)

/* The drop-down's order. */
static const WsRunClass order[] = { WS_RUN_CLASS_FAST, WS_RUN_CLASS_SLOW, WS_RUN_CLASS_NONE };

static guint
n_traces (WsRunClassChips *self)
{
  return self->paths != NULL ? g_strv_length (self->paths) : 0;
}

/**
 * ws_run_class_chips_get_shown:
 *
 * Returns: the class trace @index shows: given, else the default
 */
WsRunClass
ws_run_class_chips_get_shown (WsRunClassChips *self,
                              guint            index)
{
  WsRunClass given = WS_RUN_CLASS_NONE;

  g_return_val_if_fail (WS_IS_RUN_CLASS_CHIPS (self), WS_RUN_CLASS_NONE);
  g_return_val_if_fail (index < n_traces (self), WS_RUN_CLASS_NONE);
  /* A trace the user left out stays out; only one never marked takes
   * the default. */
  if ((self->classes != NULL && ws_run_classes_lookup_given (self->classes, self->paths[index], &given))
      || !self->first_fast)
    return given;
  return index == 0 ? WS_RUN_CLASS_FAST : WS_RUN_CLASS_SLOW;
}

static void
update_count (WsRunClassChips *self)
{
  guint n[3] = { 0, 0, 0 };
  g_autofree char *text = NULL;

  for (guint i = 0; i < n_traces (self); i++)
    n[ws_run_class_chips_get_shown (self, i)]++;
  /* Translators: the classes of the traces shown */
  text = g_strdup_printf (_("%u slow · %u fast · %u left out"), n[WS_RUN_CLASS_SLOW], n[WS_RUN_CLASS_FAST],
                          n[WS_RUN_CLASS_NONE]);
  gtk_label_set_text (self->count_label, text);
}

static void rebuild (WsRunClassChips *self);

/* A chip changed: every trace gets the class it shows (with first-fast
 * the defaults become the user's), the changed one its new class. */
static void
chip_changed_cb (GtkDropDown     *dropdown,
                 GParamSpec      *pspec,
                 WsRunClassChips *self)
{
  guint index = GPOINTER_TO_UINT (g_object_get_data (G_OBJECT (dropdown), "ws-trace-index"));
  guint selected = gtk_drop_down_get_selected (dropdown);
  guint n = n_traces (self);
  g_autofree WsRunClass *classes = g_new (WsRunClass, MAX (n, 1));

  if (self->classes == NULL || selected >= G_N_ELEMENTS (order) || index >= n)
    return;
  for (guint i = 0; i < n; i++)
    classes[i] = ws_run_class_chips_get_shown (self, i);
  classes[index] = order[selected];
  self->writing = TRUE;
  ws_run_classes_set_many (self->classes, (const char * const *) self->paths, classes, n);
  self->writing = FALSE;
  update_count (self);
}

static GtkWidget *
chip (WsRunClassChips *self,
      guint            index)
{
  const char * const items[] = { _("fast"), _("slow"), _("left out"), NULL };
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 4);
  GtkWidget *label = gtk_label_new (self->names[index]);
  GtkWidget *dropdown = gtk_drop_down_new_from_strings (items);
  WsRunClass klass = ws_run_class_chips_get_shown (self, index);

  gtk_label_set_ellipsize (GTK_LABEL (label), PANGO_ELLIPSIZE_MIDDLE);
  gtk_label_set_max_width_chars (GTK_LABEL (label), 24);
  gtk_widget_set_tooltip_text (label, self->paths[index]);
  gtk_drop_down_set_selected (GTK_DROP_DOWN (dropdown),
                              klass == WS_RUN_CLASS_FAST ? 0 : klass == WS_RUN_CLASS_SLOW ? 1 : 2);
  gtk_accessible_update_property (GTK_ACCESSIBLE (dropdown), GTK_ACCESSIBLE_PROPERTY_LABEL, self->names[index], -1);
  g_object_set_data (G_OBJECT (dropdown), "ws-trace-index", GUINT_TO_POINTER (index));
  g_signal_connect (dropdown, "notify::selected", G_CALLBACK (chip_changed_cb), self);
  gtk_box_append (GTK_BOX (box), label);
  gtk_box_append (GTK_BOX (box), dropdown);
  return box;
}

static void
rebuild (WsRunClassChips *self)
{
  GtkWidget *child;

  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self->flow))) != NULL)
    gtk_flow_box_remove (self->flow, child);
  for (guint i = 0; i < n_traces (self); i++)
    gtk_flow_box_append (self->flow, chip (self, i));
  update_count (self);
}

static void
classes_changed_cb (WsRunClassChips *self)
{
  if (!self->writing)
    rebuild (self);
}

/**
 * ws_run_class_chips_load_file:
 *
 * Replaces the classes with @file's (what "Load Classes File…" does once
 * a file is chosen); a bad file is named, with the line, under the
 * buttons, and the classes stay.
 *
 * Returns: whether the file was read
 */
gboolean
ws_run_class_chips_load_file (WsRunClassChips *self,
                              const char      *file)
{
  g_autoptr(GError) error = NULL;

  g_return_val_if_fail (WS_IS_RUN_CLASS_CHIPS (self), FALSE);
  if (self->classes == NULL)
    return FALSE;
  if (!ws_run_classes_load_csv (self->classes, file, &error))
    {
      gtk_label_set_text (self->error_label, error->message);
      gtk_widget_set_visible (GTK_WIDGET (self->error_label), TRUE);
      return FALSE;
    }
  gtk_widget_set_visible (GTK_WIDGET (self->error_label), FALSE);
  return TRUE;
}

static void
load_response_cb (GtkNativeDialog *dialog,
                  int              response,
                  WsRunClassChips *self)
{
  if (response == GTK_RESPONSE_ACCEPT)
    {
      g_autoptr(GFile) file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (dialog));
      g_autofree char *path = file != NULL ? g_file_get_path (file) : NULL;

      if (path != NULL)
        ws_run_class_chips_load_file (self, path);
    }
  gtk_native_dialog_destroy (dialog);
  g_object_unref (dialog);
  g_object_unref (self);
}

static void
load_clicked_cb (WsRunClassChips *self)
{
  GtkRoot *root = gtk_widget_get_root (GTK_WIDGET (self));
  GtkFileChooserNative *chooser;
  GtkFileFilter *filter;

  chooser = gtk_file_chooser_native_new (_("Load Classes File"), GTK_IS_WINDOW (root) ? GTK_WINDOW (root) : NULL,
                                         GTK_FILE_CHOOSER_ACTION_OPEN, _("_Load"), _("_Cancel"));
  ws_chooser_set_start_folder (GTK_FILE_CHOOSER (chooser), GTK_WIDGET (self));
  filter = gtk_file_filter_new ();
  /* Translators: a file filter: "trace,slow|fast" or "trace,latency" per line */
  gtk_file_filter_set_name (filter, _("Classes Files (CSV)"));
  gtk_file_filter_add_pattern (filter, "*.csv");
  gtk_file_filter_add_pattern (filter, "*.CSV");
  gtk_file_chooser_add_filter (GTK_FILE_CHOOSER (chooser), filter);
  g_object_unref (filter);
  g_signal_connect (chooser, "response", G_CALLBACK (load_response_cb), g_object_ref (self));
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (chooser));
}

static void
clear_clicked_cb (WsRunClassChips *self)
{
  gtk_widget_set_visible (GTK_WIDGET (self->error_label), FALSE);
  if (self->classes != NULL)
    ws_run_classes_clear (self->classes);
}

static void
ws_run_class_chips_dispose (GObject *object)
{
  WsRunClassChips *self = WS_RUN_CLASS_CHIPS (object);

  g_clear_pointer (&self->box, gtk_widget_unparent);
  if (self->classes != NULL)
    g_signal_handlers_disconnect_by_data (self->classes, self);
  g_clear_object (&self->classes);
  g_clear_pointer (&self->paths, g_strfreev);
  g_clear_pointer (&self->names, g_strfreev);
  G_OBJECT_CLASS (ws_run_class_chips_parent_class)->dispose (object);
}

static void
ws_run_class_chips_class_init (WsRunClassChipsClass *klass)
{
  G_OBJECT_CLASS (klass)->dispose = ws_run_class_chips_dispose;
  gtk_widget_class_set_layout_manager_type (GTK_WIDGET_CLASS (klass), GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_css_name (GTK_WIDGET_CLASS (klass), "runclasschips");
}

static void
ws_run_class_chips_init (WsRunClassChips *self)
{
  GtkWidget *row = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  GtkWidget *load = gtk_button_new_with_mnemonic (_("_Load Classes File…"));
  GtkWidget *clear = gtk_button_new_with_mnemonic (_("C_lear Classes"));
  GtkWidget *scrolled;

  self->box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 4);
  self->count_label = GTK_LABEL (gtk_label_new (NULL));
  gtk_widget_set_hexpand (GTK_WIDGET (self->count_label), TRUE);
  gtk_label_set_xalign (self->count_label, 0);
  gtk_widget_add_css_class (GTK_WIDGET (self->count_label), "dim-label");
  gtk_widget_set_tooltip_text (load, _("A CSV file as “waitscope-cli --classes” reads: “trace,slow|fast” or "
                                       "“trace,latency” per line"));
  gtk_widget_set_tooltip_text (clear, _("Put every trace in no class"));
  g_signal_connect_swapped (load, "clicked", G_CALLBACK (load_clicked_cb), self);
  g_signal_connect_swapped (clear, "clicked", G_CALLBACK (clear_clicked_cb), self);
  gtk_box_append (GTK_BOX (row), GTK_WIDGET (self->count_label));
  gtk_box_append (GTK_BOX (row), load);
  gtk_box_append (GTK_BOX (row), clear);

  self->error_label = GTK_LABEL (gtk_label_new (NULL));
  gtk_label_set_xalign (self->error_label, 0);
  gtk_label_set_wrap (self->error_label, TRUE);
  gtk_label_set_selectable (self->error_label, TRUE);
  gtk_widget_add_css_class (GTK_WIDGET (self->error_label), "error");
  gtk_widget_set_visible (GTK_WIDGET (self->error_label), FALSE);

  self->flow = GTK_FLOW_BOX (gtk_flow_box_new ());
  gtk_flow_box_set_selection_mode (self->flow, GTK_SELECTION_NONE);
  gtk_flow_box_set_max_children_per_line (self->flow, 8);
  gtk_flow_box_set_column_spacing (self->flow, 12);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->flow), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                  _("The class of each trace"), -1);

  gtk_box_append (GTK_BOX (self->box), row);
  gtk_box_append (GTK_BOX (self->box), GTK_WIDGET (self->error_label));
  gtk_widget_set_valign (GTK_WIDGET (self->flow), GTK_ALIGN_START);
  /* Many traces scroll: a fleet of 24 would push the page's graphs out. */
  scrolled = gtk_scrolled_window_new ();
  gtk_scrolled_window_set_policy (GTK_SCROLLED_WINDOW (scrolled), GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC);
  gtk_scrolled_window_set_propagate_natural_height (GTK_SCROLLED_WINDOW (scrolled), TRUE);
  gtk_scrolled_window_set_max_content_height (GTK_SCROLLED_WINDOW (scrolled), 96);
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scrolled), GTK_WIDGET (self->flow));
  gtk_box_append (GTK_BOX (self->box), scrolled);
  gtk_widget_set_parent (self->box, GTK_WIDGET (self));
}

GtkWidget *
ws_run_class_chips_new (void)
{
  return g_object_new (WS_TYPE_RUN_CLASS_CHIPS, NULL);
}

/* @classes: (nullable): the session's classes, which the chips show and set */
void
ws_run_class_chips_set_classes (WsRunClassChips *self,
                                WsRunClasses    *classes)
{
  g_return_if_fail (WS_IS_RUN_CLASS_CHIPS (self));

  if (self->classes == classes)
    return;
  if (self->classes != NULL)
    g_signal_handlers_disconnect_by_data (self->classes, self);
  g_set_object (&self->classes, classes);
  if (classes != NULL)
    g_signal_connect_swapped (classes, "changed", G_CALLBACK (classes_changed_cb), self);
  rebuild (self);
}

/**
 * ws_run_class_chips_set_traces:
 * @paths: (array length=n): the traces' files (their classes' keys)
 * @names: (array length=n): what each chip says
 */
void
ws_run_class_chips_set_traces (WsRunClassChips    *self,
                               const char * const *paths,
                               const char * const *names,
                               guint               n)
{
  g_autoptr(GStrvBuilder) p = g_strv_builder_new ();
  g_autoptr(GStrvBuilder) m = g_strv_builder_new ();

  g_return_if_fail (WS_IS_RUN_CLASS_CHIPS (self));
  for (guint i = 0; i < n; i++)
    {
      g_strv_builder_add (p, paths[i] != NULL ? paths[i] : names[i]);
      g_strv_builder_add (m, names[i]);
    }
  g_strfreev (self->paths);
  g_strfreev (self->names);
  self->paths = g_strv_builder_end (p);
  self->names = g_strv_builder_end (m);
  rebuild (self);
}

void
ws_run_class_chips_set_first_fast (WsRunClassChips *self,
                                   gboolean         first_fast)
{
  g_return_if_fail (WS_IS_RUN_CLASS_CHIPS (self));
  self->first_fast = first_fast;
  rebuild (self);
}
