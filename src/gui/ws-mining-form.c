/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * What to mine, the Mining page's form.  Every choice is bound to its key
 * of the application's settings (restored when the page gets its session,
 * saved on every change); the page reads the choices when it runs.
 */
#include "config.h"

#include <adwaita.h>
#include <glib/gi18n.h>

#include "ws-miner.h"
#include "ws-mining-form.h"
#include "ws-time-format.h"

struct _WsMiningForm
{
  GtkWidget        parent_instance;

  /* Template widgets */
  GtkListBox      *trace_list;
  AdwComboRow     *scope_row;
  GtkSwitch       *critical_switch;
  GtkSwitch       *cause_switch;
  AdwEntryRow     *threads_row;
  AdwComboRow     *kind_row;
  AdwEntryRow     *include_row;
  AdwEntryRow     *exclude_row;
  GtkSpinButton   *lambda_spin;
  GtkSpinButton   *share_spin;
  GtkSpinButton   *delay_spin;
  AdwActionRow    *guideline_result_row;
  GtkSpinButton   *threshold_spin;
  AdwComboRow     *linkage_row;

  /* Owned references */
  WsSession       *session;
  GListModel      *documents;        /* the session's */
  GHashTable      *unchecked;        /* WsDocument* the user left out */
  GSettings       *settings;         /* the session's; NULL without the schema */
};

G_DEFINE_FINAL_TYPE (WsMiningForm, ws_mining_form, GTK_TYPE_WIDGET)

enum {
  CHANGED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

static void update_guideline (WsMiningForm *self);

static gboolean
document_ready (WsDocument *document)
{
  return ws_document_get_state (document) == WS_DOCUMENT_READY;
}

static GPtrArray *
chosen_documents (WsMiningForm *self)
{
  GPtrArray *chosen = g_ptr_array_new_with_free_func (g_object_unref);
  guint n = self->documents ? g_list_model_get_n_items (self->documents) : 0;

  for (guint i = 0; i < n; i++)
    {
      g_autoptr(WsDocument) document = g_list_model_get_item (self->documents, i);
      if (document_ready (document) && !g_hash_table_contains (self->unchecked, document))
        g_ptr_array_add (chosen, g_steal_pointer (&document));
    }
  return chosen;
}

static void
check_toggled_cb (GtkCheckButton *check,
                  WsMiningForm   *self)
{
  WsDocument *document = g_object_get_data (G_OBJECT (check), "document");

  if (gtk_check_button_get_active (check))
    g_hash_table_remove (self->unchecked, document);
  else
    g_hash_table_add (self->unchecked, document);
  update_guideline (self);
  g_signal_emit (self, signals[CHANGED], 0);
}

static void
update_trace_row (AdwActionRow *row)
{
  WsDocument *document = g_object_get_data (G_OBJECT (row), "document");
  GtkWidget *check = g_object_get_data (G_OBJECT (row), "check");

  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), ws_document_get_title (document));
  adw_action_row_set_subtitle (row, ws_document_get_subtitle (document));
  gtk_widget_set_sensitive (check, document_ready (document));
}

static void
document_changed_cb (AdwActionRow *row)
{
  WsMiningForm *self = g_object_get_data (G_OBJECT (row), "form");

  update_trace_row (row);
  update_guideline (self);
  g_signal_emit (self, signals[CHANGED], 0);
}

static GtkWidget *
create_trace_row (gpointer item,
                  gpointer user_data)
{
  WsMiningForm *self = user_data;
  WsDocument *document = item;
  GtkWidget *row = adw_action_row_new ();
  GtkWidget *check = gtk_check_button_new ();

  gtk_check_button_set_active (GTK_CHECK_BUTTON (check), !g_hash_table_contains (self->unchecked, document));
  gtk_widget_set_valign (check, GTK_ALIGN_CENTER);
  g_object_set_data (G_OBJECT (check), "document", document);
  g_signal_connect (check, "toggled", G_CALLBACK (check_toggled_cb), self);
  adw_action_row_add_prefix (ADW_ACTION_ROW (row), check);
  adw_action_row_set_activatable_widget (ADW_ACTION_ROW (row), check);
  adw_action_row_set_subtitle_lines (ADW_ACTION_ROW (row), 1);
  adw_preferences_row_set_use_markup (ADW_PREFERENCES_ROW (row), FALSE);

  g_object_set_data_full (G_OBJECT (row), "document", g_object_ref (document), g_object_unref);
  g_object_set_data (G_OBJECT (row), "check", check);
  g_object_set_data (G_OBJECT (row), "form", self);
  g_signal_connect_object (document, "notify::state", G_CALLBACK (document_changed_cb), row, G_CONNECT_SWAPPED);
  g_signal_connect_object (document, "notify::subtitle", G_CALLBACK (document_changed_cb), row, G_CONNECT_SWAPPED);
  g_signal_connect_object (document, "notify::title", G_CALLBACK (document_changed_cb), row, G_CONNECT_SWAPPED);
  update_trace_row (ADW_ACTION_ROW (row));
  return row;
}

/* ------------------------------------------------------------------ */
/* λ and its guideline                                                  */

static gint64
guideline_lambda (WsMiningForm *self,
                  guint        *n_traces)
{
  g_autoptr(GPtrArray) chosen = chosen_documents (self);
  double share = gtk_spin_button_get_value (self->share_spin) / 100.0;
  gint64 delay = (gint64) (gtk_spin_button_get_value (self->delay_spin) * 1e6 + 0.5);

  if (n_traces != NULL)
    *n_traces = chosen->len;
  return ws_miner_lambda_from_guideline (share, delay, MAX (chosen->len, 1));
}

static void
update_guideline (WsMiningForm *self)
{
  guint n;
  gint64 lambda = guideline_lambda (self, &n);
  g_autofree char *value = ws_format_duration (lambda);
  g_autofree char *delay = ws_format_duration ((gint64) (gtk_spin_button_get_value (self->delay_spin) * 1e6 + 0.5));
  g_autofree char *text = NULL;

  /* Translators: the λ guideline, e.g. "10 % × 300 ms × 3 traces = 90.0 ms" */
  text = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%g %% × %s × %u trace = %s",
                                       "%g %% × %s × %u traces = %s", MAX (n, 1)),
                          gtk_spin_button_get_value (self->share_spin), delay, MAX (n, 1), value);
  adw_action_row_set_subtitle (self->guideline_result_row, text);
}

static void
use_guideline_action (GtkWidget  *widget,
                      const char *action_name,
                      GVariant   *param)
{
  WsMiningForm *self = WS_MINING_FORM (widget);
  ws_mining_form_set_lambda (self, guideline_lambda (self, NULL));
}

static void
scope_changed_cb (WsMiningForm *self)
{
  WsMiningScope scope = adw_combo_row_get_selected (self->scope_row);
  static const char *const subtitles[] = {
    N_("Every event of each trace; each trace is a stream"),
    N_("Each instance's thread in its window; each instance is a stream"),
    N_("What each instance waited on, through its readiers; each instance is a stream"),
    N_("What the selected window of a thread waited on"),
    N_("Every running sample and the waits that delayed another thread; idle loops and daemons waiting for work left out"),
  };

  /* The row's subtitle is the chosen scope; what it means, in the tooltip. */
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->scope_row), _(subtitles[MIN (scope, G_N_ELEMENTS (subtitles) - 1)]));
  gtk_widget_set_sensitive (GTK_WIDGET (self->critical_switch), scope == WS_MINING_SCOPE_INSTANCE_GRAPHS || scope == WS_MINING_SCOPE_SELECTION_GRAPH);
  gtk_widget_set_sensitive (GTK_WIDGET (self->cause_switch), scope == WS_MINING_SCOPE_DELAYING);
}

/* The row's subtitle says what the chosen linkage measures. */
static void
linkage_changed_cb (WsMiningForm *self)
{
  static const char *const subtitles[] = {
    N_("Clusters as similar as their patterns on average"),
    N_("Clusters as similar as their least similar patterns"),
    N_("Clusters as similar as their most similar patterns"),
  };
  guint linkage = MIN (adw_combo_row_get_selected (self->linkage_row), G_N_ELEMENTS (subtitles) - 1);

  adw_action_row_set_subtitle (ADW_ACTION_ROW (self->linkage_row), _(subtitles[linkage]));
}

/* ------------------------------------------------------------------ */
/* Settings and session                                                 */

/* The choices outlive the page: each widget is bound to its key of the
 * application's settings (restored now, saved on every change). */
static void
bind_settings (WsMiningForm *self)
{
  static const struct { const char *key; gsize offset; const char *property; } bindings[] = {
    { "mining-scope", G_STRUCT_OFFSET (WsMiningForm, scope_row), "selected" },
    { "mining-stack-kind", G_STRUCT_OFFSET (WsMiningForm, kind_row), "selected" },
    { "mining-must-match", G_STRUCT_OFFSET (WsMiningForm, include_row), "text" },
    { "mining-must-not-match", G_STRUCT_OFFSET (WsMiningForm, exclude_row), "text" },
    { "mining-threads", G_STRUCT_OFFSET (WsMiningForm, threads_row), "text" },
    { "mining-lambda-share", G_STRUCT_OFFSET (WsMiningForm, share_spin), "value" },
    { "mining-lambda-delay", G_STRUCT_OFFSET (WsMiningForm, delay_spin), "value" },
    { "mining-threshold", G_STRUCT_OFFSET (WsMiningForm, threshold_spin), "value" },
    { "mining-linkage", G_STRUCT_OFFSET (WsMiningForm, linkage_row), "selected" },
  };
  GSettings *settings = ws_session_get_settings (self->session);

  if (settings == NULL || settings == self->settings)
    return;
  g_set_object (&self->settings, settings);
  for (guint i = 0; i < G_N_ELEMENTS (bindings); i++)
    g_settings_bind (settings, bindings[i].key, G_STRUCT_MEMBER (GObject *, self, bindings[i].offset),
                     bindings[i].property, G_SETTINGS_BIND_DEFAULT);
  /* Until the user chooses a scope, the core's default is the choice
   * (one default for the CLI and the page, whatever the schema says). */
  {
    g_autoptr(GVariant) chosen = g_settings_get_user_value (settings, "mining-scope");

    if (chosen == NULL)
      adw_combo_row_set_selected (self->scope_row, ws_mining_scope_default ());
  }
}

WsMiningRunScope
ws_mining_scope_to_run_scope (WsMiningScope scope)
{
  static const WsMiningRunScope run_scopes[] = {
    [WS_MINING_SCOPE_WHOLE_TRACES] = WS_MINING_RUN_SCOPE_ALL,
    [WS_MINING_SCOPE_INSTANCES] = WS_MINING_RUN_SCOPE_INSTANCES,
    [WS_MINING_SCOPE_INSTANCE_GRAPHS] = WS_MINING_RUN_SCOPE_INSTANCE_GRAPHS,
    [WS_MINING_SCOPE_SELECTION_GRAPH] = WS_MINING_RUN_SCOPE_SYMPTOM_GRAPH,
    [WS_MINING_SCOPE_DELAYING] = WS_MINING_RUN_SCOPE_DELAYING,
  };

  return run_scopes[MIN (scope, WS_MINING_SCOPE_DELAYING)];
}

/* The panel's scope for a core's scope (a pin stores the core's). */
WsMiningScope
ws_mining_scope_from_run_scope (WsMiningRunScope scope)
{
  for (WsMiningScope s = WS_MINING_SCOPE_WHOLE_TRACES; s <= WS_MINING_SCOPE_DELAYING; s++)
    if (ws_mining_scope_to_run_scope (s) == scope)
      return s;
  return ws_mining_scope_default ();
}

WsMiningScope
ws_mining_scope_default (void)
{
  WsMiningSettings defaults;

  ws_mining_settings_init (&defaults);
  for (WsMiningScope s = WS_MINING_SCOPE_WHOLE_TRACES; s <= WS_MINING_SCOPE_DELAYING; s++)
    if (ws_mining_scope_to_run_scope (s) == defaults.scope)
      return s;
  return WS_MINING_SCOPE_WHOLE_TRACES;
}

/**
 * ws_mining_form_set_session:
 * @session: the window's shared state: the traces offered are its
 *   documents, the settings restore and keep the choices
 */
void
ws_mining_form_set_session (WsMiningForm *self,
                            WsSession    *session)
{
  GListModel *documents;

  g_return_if_fail (WS_IS_MINING_FORM (self));
  g_return_if_fail (WS_IS_SESSION (session));

  if (!g_set_object (&self->session, session))
    return;
  bind_settings (self);
  documents = ws_session_get_documents (session);
  if (!g_set_object (&self->documents, documents))
    return;
  gtk_list_box_bind_model (self->trace_list, documents, create_trace_row, self, NULL);
  g_signal_connect_object (documents, "items-changed", G_CALLBACK (update_guideline), self, G_CONNECT_SWAPPED);
  update_guideline (self);
  g_signal_emit (self, signals[CHANGED], 0);
}

/* ------------------------------------------------------------------ */
/* The choices                                                          */

/* Returns: (transfer full) (element-type WsDocument): the loaded traces
 *   ticked, in the session's order */
GPtrArray *
ws_mining_form_dup_chosen (WsMiningForm *self)
{
  g_return_val_if_fail (WS_IS_MINING_FORM (self), NULL);
  return chosen_documents (self);
}

WsMiningScope
ws_mining_form_get_scope (WsMiningForm *self)
{
  g_return_val_if_fail (WS_IS_MINING_FORM (self), WS_MINING_SCOPE_DELAYING);
  return MIN (adw_combo_row_get_selected (self->scope_row), WS_MINING_SCOPE_DELAYING);
}

void
ws_mining_form_set_scope (WsMiningForm  *self,
                          WsMiningScope  scope)
{
  g_return_if_fail (WS_IS_MINING_FORM (self));
  g_return_if_fail (scope <= WS_MINING_SCOPE_DELAYING);
  adw_combo_row_set_selected (self->scope_row, scope);
}

/* Whether sampled running stacks are mined, not waiting ones. */
gboolean
ws_mining_form_get_running (WsMiningForm *self)
{
  g_return_val_if_fail (WS_IS_MINING_FORM (self), FALSE);
  return adw_combo_row_get_selected (self->kind_row) == 1;
}

/* Whether graph scopes keep only the critical path. */
gboolean
ws_mining_form_get_critical_path (WsMiningForm *self)
{
  g_return_val_if_fail (WS_IS_MINING_FORM (self), FALSE);
  return gtk_switch_get_active (self->critical_switch);
}

void
ws_mining_form_set_running (WsMiningForm *self,
                            gboolean      running)
{
  g_return_if_fail (WS_IS_MINING_FORM (self));
  adw_combo_row_set_selected (self->kind_row, running ? 1 : 0);
}

/* Whether the delaying scope is mined by cause (ws_aoi_extract_causes()). */
gboolean
ws_mining_form_get_by_cause (WsMiningForm *self)
{
  g_return_val_if_fail (WS_IS_MINING_FORM (self), FALSE);
  return gtk_switch_get_active (self->cause_switch);
}

void
ws_mining_form_set_by_cause (WsMiningForm *self,
                             gboolean      by_cause)
{
  g_return_if_fail (WS_IS_MINING_FORM (self));
  gtk_switch_set_active (self->cause_switch, by_cause);
}

void
ws_mining_form_set_critical_path (WsMiningForm *self,
                                  gboolean      critical_path)
{
  g_return_if_fail (WS_IS_MINING_FORM (self));
  gtk_switch_set_active (self->critical_switch, critical_path);
}

/* @threads: (nullable): a regular expression on thread names, "" or %NULL for all */
void
ws_mining_form_set_threads (WsMiningForm *self,
                            const char   *threads)
{
  g_return_if_fail (WS_IS_MINING_FORM (self));
  gtk_editable_set_text (GTK_EDITABLE (self->threads_row), threads ? threads : "");
}

/* The threads' name expression ("" for all). */
const char *
ws_mining_form_get_threads (WsMiningForm *self)
{
  g_return_val_if_fail (WS_IS_MINING_FORM (self), "");
  return gtk_editable_get_text (GTK_EDITABLE (self->threads_row));
}

const char *
ws_mining_form_get_must (WsMiningForm *self)
{
  g_return_val_if_fail (WS_IS_MINING_FORM (self), "");
  return gtk_editable_get_text (GTK_EDITABLE (self->include_row));
}

const char *
ws_mining_form_get_must_not (WsMiningForm *self)
{
  g_return_val_if_fail (WS_IS_MINING_FORM (self), "");
  return gtk_editable_get_text (GTK_EDITABLE (self->exclude_row));
}

/**
 * ws_mining_form_set_filters:
 * @must: (nullable): a regular expression one frame of a mined stack must
 *   match ("function (module)")
 * @must_not: (nullable): one that no frame may match
 */
void
ws_mining_form_set_filters (WsMiningForm *self,
                            const char   *must,
                            const char   *must_not)
{
  g_return_if_fail (WS_IS_MINING_FORM (self));
  gtk_editable_set_text (GTK_EDITABLE (self->include_row), must ? must : "");
  gtk_editable_set_text (GTK_EDITABLE (self->exclude_row), must_not ? must_not : "");
}

/* λ in ns. */
gint64
ws_mining_form_get_lambda (WsMiningForm *self)
{
  g_return_val_if_fail (WS_IS_MINING_FORM (self), 0);
  return (gint64) (gtk_spin_button_get_value (self->lambda_spin) * 1e6 + 0.5);
}

void
ws_mining_form_set_lambda (WsMiningForm *self,
                           gint64        lambda)
{
  g_return_if_fail (WS_IS_MINING_FORM (self));
  gtk_spin_button_set_value (self->lambda_spin, lambda / 1e6);
}

/**
 * ws_mining_form_set_guideline:
 * @share_of_traces: 0…1
 * @delay_per_trace: ns
 *
 * Fills the λ guideline helper (its "Use" button sets λ from it).
 */
void
ws_mining_form_set_guideline (WsMiningForm *self,
                              double        share_of_traces,
                              gint64        delay_per_trace)
{
  g_return_if_fail (WS_IS_MINING_FORM (self));
  gtk_spin_button_set_value (self->share_spin, share_of_traces * 100);
  gtk_spin_button_set_value (self->delay_spin, delay_per_trace / 1e6);
}

/* The similarity at which patterns share a cluster. */
double
ws_mining_form_get_threshold (WsMiningForm *self)
{
  g_return_val_if_fail (WS_IS_MINING_FORM (self), 0);
  return gtk_spin_button_get_value (self->threshold_spin);
}

void
ws_mining_form_set_threshold (WsMiningForm *self,
                              double        threshold)
{
  g_return_if_fail (WS_IS_MINING_FORM (self));
  gtk_spin_button_set_value (self->threshold_spin, threshold);
}

/* How clusters' similarities combine (the order of WsLinkage). */
WsLinkage
ws_mining_form_get_linkage (WsMiningForm *self)
{
  g_return_val_if_fail (WS_IS_MINING_FORM (self), WS_LINKAGE_AVERAGE);
  return MIN (adw_combo_row_get_selected (self->linkage_row), WS_LINKAGE_SINGLE);
}

void
ws_mining_form_set_linkage (WsMiningForm *self,
                            WsLinkage     linkage)
{
  g_return_if_fail (WS_IS_MINING_FORM (self));
  g_return_if_fail (linkage <= WS_LINKAGE_SINGLE);
  adw_combo_row_set_selected (self->linkage_row, linkage);
}

/* ------------------------------------------------------------------ */
/* GObject                                                              */

static void
ws_mining_form_dispose (GObject *object)
{
  WsMiningForm *self = WS_MINING_FORM (object);
  GtkWidget *child;

  if (self->trace_list != NULL)
    gtk_list_box_bind_model (self->trace_list, NULL, NULL, NULL, NULL);
  gtk_widget_dispose_template (GTK_WIDGET (self), WS_TYPE_MINING_FORM);
  /* The template's root has no id, so dispose_template() leaves it. */
  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self))) != NULL)
    gtk_widget_unparent (child);
  g_clear_object (&self->settings);
  g_clear_object (&self->documents);
  g_clear_object (&self->session);
  g_clear_pointer (&self->unchecked, g_hash_table_unref);

  G_OBJECT_CLASS (ws_mining_form_parent_class)->dispose (object);
}

static void
ws_mining_form_class_init (WsMiningFormClass *klass)
{
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  G_OBJECT_CLASS (klass)->dispose = ws_mining_form_dispose;

  /**
   * WsMiningForm::changed:
   *
   * The traces offered or chosen changed.
   */
  signals[CHANGED] =
    g_signal_new ("changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 0);

  gtk_widget_class_set_template_from_resource (widget_class, "/io/github/waitscope/Waitscope/ws-mining-form.ui");
  gtk_widget_class_bind_template_child (widget_class, WsMiningForm, trace_list);
  gtk_widget_class_bind_template_child (widget_class, WsMiningForm, scope_row);
  gtk_widget_class_bind_template_child (widget_class, WsMiningForm, critical_switch);
  gtk_widget_class_bind_template_child (widget_class, WsMiningForm, cause_switch);
  gtk_widget_class_bind_template_child (widget_class, WsMiningForm, threads_row);
  gtk_widget_class_bind_template_child (widget_class, WsMiningForm, kind_row);
  gtk_widget_class_bind_template_child (widget_class, WsMiningForm, include_row);
  gtk_widget_class_bind_template_child (widget_class, WsMiningForm, exclude_row);
  gtk_widget_class_bind_template_child (widget_class, WsMiningForm, lambda_spin);
  gtk_widget_class_bind_template_child (widget_class, WsMiningForm, share_spin);
  gtk_widget_class_bind_template_child (widget_class, WsMiningForm, delay_spin);
  gtk_widget_class_bind_template_child (widget_class, WsMiningForm, guideline_result_row);
  gtk_widget_class_bind_template_child (widget_class, WsMiningForm, threshold_spin);
  gtk_widget_class_bind_template_child (widget_class, WsMiningForm, linkage_row);
  gtk_widget_class_install_action (widget_class, "form.use-guideline", NULL, use_guideline_action);
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "miningform");
}

static void
ws_mining_form_init (WsMiningForm *self)
{
  g_autoptr(GtkStringList) scopes = NULL;

  self->unchecked = g_hash_table_new (NULL, NULL);
  gtk_widget_init_template (GTK_WIDGET (self));

  scopes = gtk_string_list_new ((const char *[]) {
    _("Whole traces"),
    _("Scenario instances"),
    _("Wait graphs of scenario instances"),
    _("Wait graph of the timeline selection"),
    _("Waits that delayed another thread"),
    NULL });
  adw_combo_row_set_model (self->scope_row, G_LIST_MODEL (scopes));
  adw_combo_row_set_use_subtitle (self->scope_row, TRUE);
  g_signal_connect_swapped (self->scope_row, "notify::selected", G_CALLBACK (scope_changed_cb), self);
  adw_combo_row_set_selected (self->scope_row, ws_mining_scope_default ());
  scope_changed_cb (self);
  g_signal_connect_swapped (self->linkage_row, "notify::selected", G_CALLBACK (linkage_changed_cb), self);
  linkage_changed_cb (self);
  g_signal_connect_swapped (self->share_spin, "value-changed", G_CALLBACK (update_guideline), self);
  g_signal_connect_swapped (self->delay_spin, "value-changed", G_CALLBACK (update_guideline), self);
  update_guideline (self);
}

/**
 * ws_mining_form_dup_scope_words:
 *
 * Returns: (transfer full): the chosen scope and filters in words, as the
 *   form names them ("scope “Scenario instances”, threads “pg”, stacks
 *   with “XLog”"), for a message that says what came out empty
 */
char *
ws_mining_form_dup_scope_words (WsMiningForm *self)
{
  GString *out = g_string_new (NULL);
  GObject *item;
  const char *threads, *must, *must_not;

  g_return_val_if_fail (WS_IS_MINING_FORM (self), NULL);

  item = adw_combo_row_get_selected_item (self->scope_row);
  /* Translators: the Mining form's scope, named as its drop-down shows it */
  g_string_append_printf (out, _("scope “%s”"), item ? gtk_string_object_get_string (GTK_STRING_OBJECT (item)) : "?");
  threads = ws_mining_form_get_threads (self);
  must = ws_mining_form_get_must (self);
  must_not = ws_mining_form_get_must_not (self);
  if (threads != NULL && *threads)
    /* Translators: the Mining form's thread filter */
    g_string_append_printf (out, _(", threads “%s”"), threads);
  if (must != NULL && *must)
    /* Translators: the Mining form's "stacks must have" filter */
    g_string_append_printf (out, _(", stacks with “%s”"), must);
  if (must_not != NULL && *must_not)
    /* Translators: the Mining form's "stacks must not have" filter */
    g_string_append_printf (out, _(", stacks without “%s”"), must_not);
  return g_string_free (out, FALSE);
}
