/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * WsPreferencesWindow (see the header).  Rows are made in code from one
 * table per page, each bound with g_settings_bind() (two-way: another
 * window changing a key moves the row too).  The anomaly threshold is a
 * probability in the schema and a percentage on screen.
 */
#include "config.h"

#include <glib/gi18n.h>

#include "ws-preferences-window.h"

struct _WsPreferencesWindow
{
  AdwPreferencesWindow parent_instance;

  GSettings           *settings;
};

G_DEFINE_FINAL_TYPE (WsPreferencesWindow, ws_preferences_window, ADW_TYPE_PREFERENCES_WINDOW)

static void
ws_preferences_window_dispose (GObject *object)
{
  WsPreferencesWindow *self = WS_PREFERENCES_WINDOW (object);

  g_clear_object (&self->settings);
  G_OBJECT_CLASS (ws_preferences_window_parent_class)->dispose (object);
}

static void
ws_preferences_window_class_init (WsPreferencesWindowClass *klass)
{
  G_OBJECT_CLASS (klass)->dispose = ws_preferences_window_dispose;
}

static void
ws_preferences_window_init (WsPreferencesWindow *self)
{
}

/* A row with @widget at its end; the row's title names the widget. */
static GtkWidget *
action_row (const char *title,
            const char *subtitle,
            GtkWidget  *widget)
{
  GtkWidget *row = adw_action_row_new ();

  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), title);
  if (subtitle != NULL)
    adw_action_row_set_subtitle (ADW_ACTION_ROW (row), subtitle);
  gtk_widget_set_valign (widget, GTK_ALIGN_CENTER);
  adw_action_row_add_suffix (ADW_ACTION_ROW (row), widget);
  adw_action_row_set_activatable_widget (ADW_ACTION_ROW (row), widget);
  gtk_accessible_update_relation (GTK_ACCESSIBLE (widget), GTK_ACCESSIBLE_RELATION_LABELLED_BY, row, NULL, -1);
  return row;
}

static GtkWidget *
switch_row (WsPreferencesWindow *self,
            const char          *key,
            const char          *title,
            const char          *subtitle)
{
  GtkWidget *toggle = gtk_switch_new ();

  g_settings_bind (self->settings, key, toggle, "active", G_SETTINGS_BIND_DEFAULT);
  gtk_widget_set_name (toggle, key);
  return action_row (title, subtitle, toggle);
}

static GtkWidget *
spin_row (WsPreferencesWindow *self,
          const char          *key,
          const char          *title,
          const char          *subtitle,
          double               lower,
          double               upper,
          double               step,
          guint                digits)
{
  GtkWidget *spin = gtk_spin_button_new_with_range (lower, upper, step);

  gtk_spin_button_set_digits (GTK_SPIN_BUTTON (spin), digits);
  g_settings_bind (self->settings, key, spin, "value", G_SETTINGS_BIND_DEFAULT);
  gtk_widget_set_name (spin, key);
  return action_row (title, subtitle, spin);
}

static GtkWidget *
entry_row (WsPreferencesWindow *self,
           const char          *key,
           const char          *title)
{
  GtkWidget *row = adw_entry_row_new ();

  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), title);
  g_settings_bind (self->settings, key, row, "text", G_SETTINGS_BIND_DEFAULT);
  gtk_widget_set_name (row, key);
  return row;
}

static GtkWidget *
combo_row (WsPreferencesWindow *self,
           const char          *key,
           const char          *title,
           const char * const  *items)
{
  GtkWidget *row = adw_combo_row_new ();
  g_autoptr(GtkStringList) model = gtk_string_list_new (items);

  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), title);
  adw_combo_row_set_model (ADW_COMBO_ROW (row), G_LIST_MODEL (model));
  g_settings_bind (self->settings, key, row, "selected", G_SETTINGS_BIND_DEFAULT);
  gtk_widget_set_name (row, key);
  return row;
}

static GtkWidget *
group (AdwPreferencesPage *page,
       const char         *title,
       const char         *description)
{
  GtkWidget *g = adw_preferences_group_new ();

  adw_preferences_group_set_title (ADW_PREFERENCES_GROUP (g), title);
  if (description != NULL)
    adw_preferences_group_set_description (ADW_PREFERENCES_GROUP (g), description);
  adw_preferences_page_add (page, ADW_PREFERENCES_GROUP (g));
  return g;
}

static AdwPreferencesPage *
page (WsPreferencesWindow *self,
      const char          *title,
      const char          *icon)
{
  AdwPreferencesPage *p = ADW_PREFERENCES_PAGE (adw_preferences_page_new ());

  adw_preferences_page_set_title (p, title);
  adw_preferences_page_set_icon_name (p, icon);
  adw_preferences_window_add (ADW_PREFERENCES_WINDOW (self), p);
  return p;
}

static void
clear_recent_cb (GtkButton           *button,
                 WsPreferencesWindow *self)
{
  g_settings_reset (self->settings, "recent-files");
  adw_preferences_window_add_toast (ADW_PREFERENCES_WINDOW (self), adw_toast_new (_("Recent traces cleared")));
}

static void
general_page (WsPreferencesWindow *self)
{
  AdwPreferencesPage *p = page (self, _("General"), "preferences-system-symbolic");
  GtkWidget *g = group (p, _("Window"), NULL);
  GtkWidget *clear = gtk_button_new_with_mnemonic (_("C_lear"));

  adw_preferences_group_add (ADW_PREFERENCES_GROUP (g),
                             switch_row (self, "show-sidebar", _("Show the open traces"),
                                         _("The sidebar listing the traces open in the window")));
  adw_preferences_group_add (ADW_PREFERENCES_GROUP (g),
                             spin_row (self, "timeline-row-height", _("Timeline row height"),
                                       _("Pixels per thread row"), 16, 48, 1, 0));
  g_signal_connect (clear, "clicked", G_CALLBACK (clear_recent_cb), self);
  adw_preferences_group_add (ADW_PREFERENCES_GROUP (g),
                             action_row (_("Recent traces"), _("The list the Open menu offers"), clear));

  g = group (p, _("History"), NULL);
  adw_preferences_group_add (ADW_PREFERENCES_GROUP (g),
                             switch_row (self, "record-history", _("Record opened traces in the history"),
                                         _("Their call stacks weight mining, their waits train the anomaly models")));
}

static gboolean
percent_from_setting (GValue   *value,
                      GVariant *variant,
                      gpointer  data)
{
  g_value_set_double (value, 100 * g_variant_get_double (variant));
  return TRUE;
}

static GVariant *
percent_to_setting (const GValue       *value,
                    const GVariantType *type,
                    gpointer            data)
{
  return g_variant_new_double (g_value_get_double (value) / 100);
}

static void
anomaly_page (WsPreferencesWindow *self)
{
  AdwPreferencesPage *p = page (self, _("Anomalies"), "dialog-warning-symbolic");
  GtkWidget *g = group (p, _("Anomaly Models"),
                        _("Each kind of wait has a mixture of Gaussians fitted on its history; a wait is "
                          "anomalous when a wait at least as long is this improbable. Your flags move the "
                          "threshold of their kind from there."));
  GtkWidget *threshold = gtk_spin_button_new_with_range (0.0001, 50, 0.5);

  /* Four digits for the smallest thresholds, but room for all of them:
   * at its natural width the button showed "5.000(". */
  gtk_spin_button_set_digits (GTK_SPIN_BUTTON (threshold), 4);
  gtk_editable_set_width_chars (GTK_EDITABLE (threshold), 7);
  gtk_widget_set_name (threshold, "anomaly-threshold");
  g_settings_bind_with_mapping (self->settings, "anomaly-threshold", threshold, "value", G_SETTINGS_BIND_DEFAULT,
                                percent_from_setting, percent_to_setting, NULL, NULL);
  adw_preferences_group_add (ADW_PREFERENCES_GROUP (g),
                             action_row (_("Threshold (%)"),
                                         _("False discoveries allowed over a kind's waits; with the per-wait cut, P(D ≥ d) at or below which a wait is anomalous"),
                                         threshold));
  adw_preferences_group_add (ADW_PREFERENCES_GROUP (g),
                             switch_row (self, "anomaly-per-wait-cut", _("Per-wait cut"),
                                         _("The paper's rule: calls a share of every kind anomalous, healthy or not")));
  adw_preferences_group_add (ADW_PREFERENCES_GROUP (g),
                             spin_row (self, "anomaly-signature-depth", _("Wait signature depth"),
                                       _("User-space frames above the kernel that name a kind of wait"),
                                       1, 16, 1, 0));
  g = group (p, _("Timeline"), NULL);
  adw_preferences_group_add (ADW_PREFERENCES_GROUP (g),
                             switch_row (self, "anomaly-colours", _("Colour waits by anomaly"),
                                         _("A bar under each wait in the colour of its score")));
}

static void
mining_page (WsPreferencesWindow *self)
{
  static const char *scopes[] = { N_("Whole traces"), N_("Scenario instances"),
                                  N_("Wait graphs of scenario instances"),
                                  N_("Wait graph of the timeline selection"),
                                  N_("Waits that delayed another thread"), NULL };
  static const char *kinds[] = { N_("Waiting stacks"), N_("Running stacks"), NULL };
  static const char *ranks[] = { N_("Total cost"), N_("Traces"), N_("Events"), N_("Average cost"), NULL };
  static const char *linkages[] = { NC_("linkage", "Average"), NC_("linkage", "Complete"), NC_("linkage", "Single"), NULL };
  const char *s[G_N_ELEMENTS (scopes)], *k[G_N_ELEMENTS (kinds)], *r[G_N_ELEMENTS (ranks)];
  const char *l[G_N_ELEMENTS (linkages)];
  AdwPreferencesPage *p = page (self, _("Mining"), "edit-find-symbolic");
  GtkWidget *g = group (p, _("What Is Mined"), NULL);

  for (guint i = 0; i < G_N_ELEMENTS (scopes); i++)
    s[i] = scopes[i] ? _(scopes[i]) : NULL;
  for (guint i = 0; i < G_N_ELEMENTS (kinds); i++)
    k[i] = kinds[i] ? _(kinds[i]) : NULL;
  for (guint i = 0; i < G_N_ELEMENTS (ranks); i++)
    r[i] = ranks[i] ? _(ranks[i]) : NULL;
  for (guint i = 0; i < G_N_ELEMENTS (linkages); i++)
    l[i] = linkages[i] ? g_dpgettext2 (NULL, "linkage", linkages[i]) : NULL;
  adw_preferences_group_add (ADW_PREFERENCES_GROUP (g), combo_row (self, "mining-scope", _("Scope"), s));
  adw_preferences_group_add (ADW_PREFERENCES_GROUP (g), combo_row (self, "mining-stack-kind", _("Mine"), k));
  adw_preferences_group_add (ADW_PREFERENCES_GROUP (g),
                             entry_row (self, "mining-must-match", _("Must contain a frame matching")));
  adw_preferences_group_add (ADW_PREFERENCES_GROUP (g),
                             entry_row (self, "mining-must-not-match", _("Must not contain a frame matching")));
  adw_preferences_group_add (ADW_PREFERENCES_GROUP (g),
                             entry_row (self, "mining-threads", _("Only threads matching")));

  g = group (p, _("Which Patterns Are Costly"),
            _("Mining keeps a pattern when it costs at least this much: in this share of the traces, "
              "this much delay in each (the cost threshold, λ)."));
  gtk_widget_set_tooltip_text (g, _("StackMine §V's guideline: λ = share of traces × delay per trace"));
  adw_preferences_group_add (ADW_PREFERENCES_GROUP (g),
                             spin_row (self, "mining-lambda-share", _("Share of traces (%)"), NULL, 1, 100, 1, 0));
  adw_preferences_group_add (ADW_PREFERENCES_GROUP (g),
                             spin_row (self, "mining-lambda-delay", _("Delay per trace (ms)"), NULL,
                                       0.1, 10000000, 10, 1));

  g = group (p, _("Clusters"), NULL);
  adw_preferences_group_add (ADW_PREFERENCES_GROUP (g),
                             spin_row (self, "mining-threshold", _("Similarity threshold"),
                                       _("Patterns at least this similar share a cluster"), 0.05, 1, 0.05, 2));
  adw_preferences_group_add (ADW_PREFERENCES_GROUP (g), combo_row (self, "mining-linkage", _("Linkage"), l));
  adw_preferences_group_add (ADW_PREFERENCES_GROUP (g), combo_row (self, "mining-rank", _("Rank clusters by"), r));
}

/**
 * ws_preferences_window_new:
 * @settings: the application's settings
 *
 * Returns: (transfer floating): the window, transient for @parent
 */
GtkWidget *
ws_preferences_window_new (GtkWindow *parent,
                           GSettings *settings)
{
  WsPreferencesWindow *self;

  g_return_val_if_fail (G_IS_SETTINGS (settings), NULL);

  self = g_object_new (WS_TYPE_PREFERENCES_WINDOW, "transient-for", parent, "modal", FALSE,
                       "search-enabled", TRUE, NULL);
  self->settings = g_object_ref (settings);
  general_page (self);
  anomaly_page (self);
  mining_page (self);
  return GTK_WIDGET (self);
}
