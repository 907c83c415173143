/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The Inspector panel.  It keeps what to inspect (the symptom, its wait
 * graph once the page has built it, the trace for the whole-trace scope)
 * and runs one inspection at a time through a WsWorker, so that asking
 * again drops a late answer.
 */
#include "config.h"

#include <adwaita.h>
#include <glib/gi18n.h>

#include "ws-event-format.h"
#include "ws-export-dialog.h"
#include "ws-graph-export.h"
#include "ws-list-placeholder.h"
#include "ws-inspector-panel.h"
#include "ws-inspector-run.h"
#include "ws-time-format.h"
#include "ws-worker.h"

struct _WsInspectorPanel
{
  GtkWidget          parent_instance;

  /* Template widgets */
  GtkLabel          *inspector_scope_label;
  GtkSpinner        *inspector_spinner;
  GtkToggleButton   *inspector_graph_button;
  GtkToggleButton   *inspector_trace_button;
  GtkListBox        *inspector_list;

  /* What to inspect */
  WsTrace           *trace;             /* the symptom's */
  WsSymptom          symptom;
  gboolean           have_symptom;
  WsWaitGraph       *graph;             /* the symptom's, once built; nullable */
  WsTrace           *trace_to_inspect;  /* whole-trace scope */
  WsInspectorScope   scope;

  /* The findings */
  WsWorker          *worker;
  GPtrArray         *findings;          /* WsFinding, or NULL */
  WsTrace           *inspected_trace;   /* the trace the findings are of */
  guint              n_waits;           /* the percentages' denominator */
  guint              selected_finding;  /* index chosen last, or WS_NONE */
  gboolean           in_update;
};

G_DEFINE_FINAL_TYPE (WsInspectorPanel, ws_inspector_panel, GTK_TYPE_WIDGET)

enum {
  INSPECTED,
  FINDINGS_CHANGED,
  FINDING_SELECTED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

/* ------------------------------------------------------------------ */
/* The worker                                                           */

typedef struct {
  WsTrace     *trace;
  WsWaitGraph *graph;        /* nullable: built from the symptom if not given */
  WsSymptom    symptom;
  gboolean     whole_trace;
} InspectJob;

static void
inspect_job_free (InspectJob *job)
{
  g_clear_object (&job->trace);
  g_clear_object (&job->graph);
  g_free (job);
}

/* The core's inspector run: the whole trace, or the symptom's wait graph
 * (reusing the page's when it has built it). */
static void
inspect_thread (GTask        *task,
                gpointer      source_object,
                gpointer      task_data,
                GCancellable *cancellable)
{
  InspectJob *job = task_data;
  WsInspectorSettings settings;
  GError *error = NULL;
  WsInspectorResult *result;

  ws_inspector_settings_init (&settings, job->whole_trace ? NULL : &job->symptom);
  settings.graph = job->whole_trace ? NULL : job->graph;
  /* Every wait of a finding, so that all of them can be highlighted. */
  settings.options.top_n = G_MAXUINT;
  result = ws_inspector_run (job->trace, &settings, cancellable, NULL, NULL, &error);
  if (result == NULL)
    g_task_return_error (task, error);
  else
    g_task_return_pointer (task, result, (GDestroyNotify) ws_inspector_result_free);
}

/* ------------------------------------------------------------------ */
/* The list                                                             */

static char *
group_digits (guint n)
{
  /* The locale's thousands separator ("1,234" in English). */
  return g_strdup_printf ("%'u", n);
}

/**
 * ws_inspector_panel_dup_finding_title:
 *
 * Returns: (transfer full): the headline of finding @finding, e.g.
 *   "1,234 waits (30 %) have no recorded readier"
 */
char *
ws_inspector_panel_dup_finding_title (WsInspectorPanel *self,
                                      guint             finding)
{
  const WsFinding *f;
  g_autofree char *count = NULL;

  g_return_val_if_fail (WS_IS_INSPECTOR_PANEL (self), NULL);
  g_return_val_if_fail (self->findings != NULL && finding < self->findings->len, NULL);

  f = g_ptr_array_index (self->findings, finding);
  count = group_digits (f->count);
  switch (f->kind)
    {
    case WS_FINDING_UNDER_CONNECTION:
      {
        double pct = self->n_waits > 0 ? 100.0 * f->count / self->n_waits : 0;
        g_autofree char *share = pct >= 10 || pct == 0 ? g_strdup_printf ("%.0f %%", pct)
                                                       : g_strdup_printf ("%.1f %%", pct);
        /* Translators: under-connection headline: number of waits, their
         * share of all waits */
        return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%s wait (%s) has no recorded readier",
                                             "%s waits (%s) have no recorded readier", f->count),
                                count, share);
      }
    case WS_FINDING_INTERRUPT_READIER:
      return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                           "%s wake-up from interrupt context is recorded in a thread",
                                           "%s wake-ups from interrupt context are recorded in a thread", f->count),
                              count);
    case WS_FINDING_OVER_CONNECTION:
    default:
      return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                           "Unrelated processes joined through a daemon or heartbeat thread (%s wait)",
                                           "Unrelated processes joined through a daemon or heartbeat thread (%s waits)",
                                           f->count),
                              count);
    }
}

static const char *
severity_icon (WsSeverity severity)
{
  switch (severity)
    {
    case WS_SEVERITY_ERROR:   return "dialog-error-symbolic";
    case WS_SEVERITY_WARNING: return "dialog-warning-symbolic";
    case WS_SEVERITY_INFO:
    default:                  return "dialog-information-symbolic";
    }
}

static const char *
severity_name (WsSeverity severity)
{
  switch (severity)
    {
    case WS_SEVERITY_ERROR:   return _("Error");
    case WS_SEVERITY_WARNING: return _("Warning");
    case WS_SEVERITY_INFO:
    default:                  return _("Information");
    }
}

static GtkWidget *
row_label (const char *text,
           float       xalign,
           const char *css_class,
           const char *css_class2)
{
  GtkWidget *label = gtk_label_new (text);

  gtk_label_set_xalign (GTK_LABEL (label), xalign);
  if (css_class != NULL)
    gtk_widget_add_css_class (label, css_class);
  if (css_class2 != NULL)
    gtk_widget_add_css_class (label, css_class2);
  return label;
}

/* The headline and the inspector's explanation under it. */
static GtkWidget *
finding_text (const char *title,
              const char *message)
{
  GtkWidget *text = gtk_box_new (GTK_ORIENTATION_VERTICAL, 2);
  GtkWidget *label = row_label (title, 0, "heading", NULL);

  gtk_label_set_wrap (GTK_LABEL (label), TRUE);
  gtk_box_append (GTK_BOX (text), label);
  label = row_label (message, 0, "dim-label", "caption");
  gtk_label_set_wrap (GTK_LABEL (label), TRUE);
  gtk_label_set_wrap_mode (GTK_LABEL (label), PANGO_WRAP_WORD_CHAR);
  gtk_box_append (GTK_BOX (text), label);
  gtk_widget_set_hexpand (text, TRUE);
  return text;
}

static GtkWidget *
finding_row (WsInspectorPanel *self,
             guint             index)
{
  const WsFinding *f = g_ptr_array_index (self->findings, index);
  GtkWidget *row = gtk_list_box_row_new ();
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 10);
  GtkWidget *numbers = gtk_box_new (GTK_ORIENTATION_VERTICAL, 2);
  GtkWidget *icon = gtk_image_new_from_icon_name (severity_icon (f->severity));
  g_autofree char *title = ws_inspector_panel_dup_finding_title (self, index);
  g_autofree char *cost = ws_format_duration (f->cost);
  g_autofree char *count = group_digits (f->count);
  g_autofree char *count_text = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%s wait", "%s waits", f->count), count);
  g_autofree char *cost_text = g_strdup_printf (_("%s waited"), cost);
  g_autofree char *accessible = NULL;

  gtk_widget_set_valign (icon, GTK_ALIGN_START);
  gtk_widget_set_margin_top (icon, 2);
  gtk_widget_add_css_class (icon, f->severity == WS_SEVERITY_ERROR ? "error"
                                  : f->severity == WS_SEVERITY_WARNING ? "warning" : "accent");
  gtk_widget_set_tooltip_text (icon, severity_name (f->severity));
  gtk_box_append (GTK_BOX (box), icon);
  gtk_box_append (GTK_BOX (box), finding_text (title, f->message));
  gtk_box_append (GTK_BOX (numbers), row_label (count_text, 1, "numeric", NULL));
  gtk_box_append (GTK_BOX (numbers), row_label (cost_text, 1, "numeric", "dim-label"));
  gtk_box_append (GTK_BOX (box), numbers);

  gtk_widget_set_margin_top (box, 4);
  gtk_widget_set_margin_bottom (box, 4);
  gtk_widget_set_margin_start (box, 6);
  gtk_widget_set_margin_end (box, 6);
  gtk_list_box_row_set_child (GTK_LIST_BOX_ROW (row), box);
  g_object_set_data (G_OBJECT (row), "finding", GUINT_TO_POINTER (index));
  /* Translators: accessible name of an inspector finding: severity,
   * headline, count, time */
  accessible = g_strdup_printf (_("%s: %s; %s, %s"), severity_name (f->severity), title, count_text, cost_text);
  gtk_accessible_update_property (GTK_ACCESSIBLE (row), GTK_ACCESSIBLE_PROPERTY_LABEL, accessible,
                                  GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, f->message, -1);
  return row;
}

/* The status-line words for findings that include under-connections. */
static char *
under_connection_verdict (WsInspectorPanel *self,
                          guint             under)
{
  const WsFinding *f = g_ptr_array_index (self->findings, under);
  g_autofree char *count = group_digits (f->count);
  guint n = self->findings->len;
  GString *text = g_string_new (NULL);

  /* Translators: the inspector's button in the status line */
  g_string_printf (text, g_dngettext (GETTEXT_PACKAGE, "_Inspector: %s wait with no wake-up recorded",
                                      "_Inspector: %s waits with no wake-up recorded", f->count), count);
  if (n > 1)
    g_string_append_printf (text, g_dngettext (GETTEXT_PACKAGE, " · %u more finding", " · %u more findings",
                                               n - 1), n - 1);
  return g_string_free (text, FALSE);
}

/**
 * ws_inspector_panel_dup_verdict:
 * @icon_name: (out): the icon to show with it
 *
 * Returns: (transfer full): the label of the page's Inspector button, with
 *   a mnemonic: what the last inspection found, in a few words
 */
char *
ws_inspector_panel_dup_verdict (WsInspectorPanel  *self,
                                const char       **icon_name)
{
  guint n, under = WS_NONE;
  WsSeverity worst = WS_SEVERITY_INFO;

  g_return_val_if_fail (WS_IS_INSPECTOR_PANEL (self), NULL);

  n = self->findings ? self->findings->len : 0;
  for (guint i = 0; i < n; i++)
    {
      const WsFinding *f = g_ptr_array_index (self->findings, i);
      worst = MAX (worst, f->severity);
      if (f->kind == WS_FINDING_UNDER_CONNECTION)
        under = i;
    }
  *icon_name = self->findings == NULL ? "dialog-warning-symbolic"
               : n == 0 ? "object-select-symbolic" : severity_icon (worst);
  if (self->findings == NULL)
    return g_strdup (_("_Inspector"));
  if (n == 0)
    return g_strdup (_("_Inspector: nothing suspicious"));
  if (under != WS_NONE)
    return under_connection_verdict (self, under);
  return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "_Inspector: %u finding", "_Inspector: %u findings", n), n);
}

static void
fill_findings (WsInspectorPanel *self)
{
  GtkWidget *child;

  self->in_update = TRUE;
  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self->inspector_list))) != NULL)
    gtk_list_box_remove (self->inspector_list, child);
  for (guint i = 0; self->findings && i < self->findings->len; i++)
    gtk_list_box_append (self->inspector_list, finding_row (self, i));
  self->in_update = FALSE;
  self->selected_finding = WS_NONE;
  g_signal_emit (self, signals[FINDINGS_CHANGED], 0);
}

/* ------------------------------------------------------------------ */
/* Inspecting                                                           */

static void
inspect_done (gpointer  owner,
              gpointer  result,
              GError   *error,
              gpointer  job_data)
{
  WsInspectorPanel *self = WS_INSPECTOR_PANEL (owner);
  InspectJob *job = job_data;
  g_autoptr(WsInspectorResult) inspected = result;

  gtk_spinner_set_spinning (self->inspector_spinner, FALSE);
  g_clear_pointer (&self->findings, g_ptr_array_unref);
  if (inspected == NULL)
    {
      if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        return;
      ws_list_placeholder_set (self->inspector_list, error ? error->message : "");
    }
  else
    {
      self->findings = g_steal_pointer (&inspected->findings);
      self->n_waits = inspected->n_waits;
      g_set_object (&self->inspected_trace, job->trace);
      ws_list_placeholder_set (self->inspector_list,
                               _("No suspicious connection found: every wait has a readier, and no "
                                 "daemon or heartbeat thread joins unrelated processes."));
    }
  fill_findings (self);
  g_signal_emit (self, signals[INSPECTED], 0);
}

/* What the inspector looks at, in words. */
static char *
scope_text (WsInspectorPanel *self,
            WsTrace          *trace,
            gboolean          whole)
{
  g_autofree char *who = NULL;
  g_autofree char *span = NULL;
  g_autofree char *at = NULL;

  if (whole)
    /* Translators: what the inspector looked at: a trace's name */
    return g_strdup_printf (_("every wait of %s"), ws_trace_get_name (trace));
  who = ws_event_format_thread_short (trace, self->symptom.thread);
  span = ws_format_duration (self->symptom.t1 - self->symptom.t0);
  at = ws_event_format_offset (trace, self->symptom.t0);
  /* Translators: what the inspector looked at: thread, window length, start */
  return g_strdup_printf (_("the wait graph of %s, %s from %s"), who, span, at);
}

/**
 * ws_inspector_panel_inspect:
 *
 * Inspects the current scope (the symptom's wait graph, or the whole
 * trace), dropping an inspection in progress.
 */
void
ws_inspector_panel_inspect (WsInspectorPanel *self)
{
  g_autofree char *scope = NULL;
  gboolean whole;
  WsTrace *trace;
  InspectJob *job;

  g_return_if_fail (WS_IS_INSPECTOR_PANEL (self));

  whole = self->scope == WS_INSPECTOR_SCOPE_TRACE;
  trace = whole ? self->trace_to_inspect : self->trace;
  ws_worker_drop (self->worker);
  g_clear_pointer (&self->findings, g_ptr_array_unref);

  if (trace == NULL || (!whole && !self->have_symptom))
    {
      gtk_spinner_set_spinning (self->inspector_spinner, FALSE);
      gtk_label_set_text (self->inspector_scope_label, "");
      ws_list_placeholder_set (self->inspector_list, _("Select a window of a thread in the timeline, or inspect the whole trace."));
      fill_findings (self);
      return;
    }

  scope = scope_text (self, trace, whole);
  gtk_label_set_text (self->inspector_scope_label, scope);
  ws_list_placeholder_set (self->inspector_list, _("Inspecting…"));
  fill_findings (self);
  gtk_spinner_set_spinning (self->inspector_spinner, TRUE);

  job = g_new0 (InspectJob, 1);
  job->trace = g_object_ref (trace);
  job->graph = !whole && self->graph ? g_object_ref (self->graph) : NULL;
  job->symptom = self->symptom;
  job->whole_trace = whole;
  ws_worker_run (self->worker, self, job, (GDestroyNotify) inspect_job_free, inspect_thread, inspect_done);
}

/**
 * ws_inspector_panel_set_symptom:
 * @trace: (nullable): the symptom's trace
 * @symptom: (nullable): the window whose wait graph the graph scope inspects
 * @graph: (nullable): its wait graph if already built (else built anew)
 *
 * Does not inspect: ws_inspector_panel_inspect() does.
 */
void
ws_inspector_panel_set_symptom (WsInspectorPanel *self,
                                WsTrace          *trace,
                                const WsSymptom  *symptom,
                                WsWaitGraph      *graph)
{
  g_return_if_fail (WS_IS_INSPECTOR_PANEL (self));

  g_set_object (&self->trace, trace);
  self->have_symptom = symptom != NULL;
  if (symptom != NULL)
    self->symptom = *symptom;
  g_set_object (&self->graph, graph);
}

/* The trace the whole-trace scope inspects.  Does not inspect.
 * Returns: whether it changed */
gboolean
ws_inspector_panel_set_whole_trace (WsInspectorPanel *self,
                                    WsTrace          *trace)
{
  g_return_val_if_fail (WS_IS_INSPECTOR_PANEL (self), FALSE);
  return g_set_object (&self->trace_to_inspect, trace);
}

static void
scope_toggled_cb (WsInspectorPanel *self,
                  GtkToggleButton  *button)
{
  WsInspectorScope scope;

  if (!gtk_toggle_button_get_active (button) || self->in_update)
    return;
  scope = button == self->inspector_trace_button ? WS_INSPECTOR_SCOPE_TRACE : WS_INSPECTOR_SCOPE_GRAPH;
  if (scope == self->scope)
    return;
  self->scope = scope;
  ws_inspector_panel_inspect (self);
}

/**
 * ws_inspector_panel_set_scope:
 *
 * Inspects the symptom's wait graph or the whole trace (re-inspecting if
 * the scope changes).
 */
void
ws_inspector_panel_set_scope (WsInspectorPanel *self,
                              WsInspectorScope  scope)
{
  g_return_if_fail (WS_IS_INSPECTOR_PANEL (self));
  gtk_toggle_button_set_active (scope == WS_INSPECTOR_SCOPE_TRACE ? self->inspector_trace_button
                                                                  : self->inspector_graph_button, TRUE);
}

WsInspectorScope
ws_inspector_panel_get_scope (WsInspectorPanel *self)
{
  g_return_val_if_fail (WS_IS_INSPECTOR_PANEL (self), WS_INSPECTOR_SCOPE_GRAPH);
  return self->scope;
}

/* Whether an inspection is running. */
gboolean
ws_inspector_panel_get_busy (WsInspectorPanel *self)
{
  g_return_val_if_fail (WS_IS_INSPECTOR_PANEL (self), FALSE);
  return gtk_spinner_get_spinning (self->inspector_spinner);
}

/* Returns: (transfer none) (nullable) (element-type WsFinding): the
 *   findings, or %NULL while inspecting (or with nothing to inspect) */
GPtrArray *
ws_inspector_panel_get_findings (WsInspectorPanel *self)
{
  g_return_val_if_fail (WS_IS_INSPECTOR_PANEL (self), NULL);
  return self->findings;
}

/* Returns: (transfer none) (nullable): the trace the findings are of */
WsTrace *
ws_inspector_panel_get_inspected_trace (WsInspectorPanel *self)
{
  g_return_val_if_fail (WS_IS_INSPECTOR_PANEL (self), NULL);
  return self->inspected_trace;
}

/* ------------------------------------------------------------------ */
/* Choosing a finding                                                   */

static void
finding_selected_cb (WsInspectorPanel *self,
                     GtkListBoxRow    *row)
{
  if (row == NULL || self->in_update)
    return;
  ws_inspector_panel_select_finding (self, GPOINTER_TO_UINT (g_object_get_data (G_OBJECT (row), "finding")));
}

/**
 * ws_inspector_panel_select_finding:
 *
 * Selects finding @finding (an index into the findings) and emits
 * ::finding-selected with a search of its waits, whose description is
 * "Inspector: " and its headline.
 */
void
ws_inspector_panel_select_finding (WsInspectorPanel *self,
                                   guint             finding)
{
  const WsFinding *f;
  GtkListBoxRow *row;
  g_autoptr(WsStackSearch) search = NULL;
  g_autofree char *title = NULL;
  g_autofree char *description = NULL;

  g_return_if_fail (WS_IS_INSPECTOR_PANEL (self));
  g_return_if_fail (self->findings != NULL && finding < self->findings->len);

  f = g_ptr_array_index (self->findings, finding);
  title = ws_inspector_panel_dup_finding_title (self, finding);
  /* Translators: the search text standing for an inspector finding */
  description = g_strdup_printf (_("Inspector: %s"), title);
  search = ws_stack_search_new_for_events (self->inspected_trace, description,
                                           (const guint32 *) f->events->data, f->events->len);

  row = gtk_list_box_get_row_at_index (self->inspector_list, finding);
  if (row != NULL && gtk_list_box_get_selected_row (self->inspector_list) != row)
    {
      self->in_update = TRUE;
      gtk_list_box_select_row (self->inspector_list, row);
      self->in_update = FALSE;
    }
  self->selected_finding = finding;
  g_signal_emit (self, signals[FINDING_SELECTED], 0, search);
}

/**
 * ws_inspector_panel_get_bridging_threads:
 *
 * Returns: (transfer none) (nullable) (element-type guint32): if the
 *   finding chosen last is an over-connection, its bridging daemon or
 *   heartbeat threads (thread indices); else %NULL
 */
GArray *
ws_inspector_panel_get_bridging_threads (WsInspectorPanel *self)
{
  const WsFinding *f;

  g_return_val_if_fail (WS_IS_INSPECTOR_PANEL (self), NULL);

  if (self->findings == NULL || self->selected_finding >= self->findings->len)
    return NULL;
  f = g_ptr_array_index (self->findings, self->selected_finding);
  return f->kind == WS_FINDING_OVER_CONNECTION ? f->threads : NULL;
}

/* ------------------------------------------------------------------ */
/* Export                                                               */

static const char *
severity_label (WsSeverity severity)
{
  switch (severity)
    {
    case WS_SEVERITY_ERROR:
      return _("Error");
    case WS_SEVERITY_WARNING:
      return _("Warning");
    case WS_SEVERITY_INFO:
    default:
      return _("Note");
    }
}

/* The findings as a Markdown list: each headline as shown in the panel,
 * then the inspector's explanation and the threads involved. */
static char *
findings_markdown (WsInspectorPanel *self)
{
  GString *text = g_string_new (NULL);

  /* Translators: heading of the exported inspector findings; then what was inspected */
  g_string_append_printf (text, "# %s\n\n%s\n\n", _("Inspector findings"),
                          gtk_label_get_text (self->inspector_scope_label));
  for (guint i = 0; i < self->findings->len; i++)
    {
      const WsFinding *f = g_ptr_array_index (self->findings, i);
      g_autofree char *title = ws_inspector_panel_dup_finding_title (self, i);

      g_string_append_printf (text, "%u. **%s:** %s\n", i + 1, severity_label (f->severity), title);
      if (f->message != NULL && *f->message != '\0')
        g_string_append_printf (text, "   %s\n", f->message);
      if (f->threads != NULL && f->threads->len > 0)
        {
          /* Translators: label before the list of threads of a finding */
          g_string_append_printf (text, "   %s", _("Threads:"));
          for (guint t = 0; t < f->threads->len; t++)
            {
              const WsThread *thread = ws_trace_get_thread (self->inspected_trace,
                                                            g_array_index (f->threads, guint32, t));
              g_string_append_printf (text, "%s %s (%d)", t > 0 ? "," : "",
                                      thread->name ? thread->name : "?", thread->tid);
            }
          g_string_append_c (text, '\n');
        }
    }
  if (self->findings->len == 0)
    g_string_append_printf (text, "%s\n", _("No suspicious connection found."));
  return g_string_free (text, FALSE);
}

/**
 * ws_inspector_panel_export_findings:
 * @path: ends in .json (ws_graph_export_findings_json()) or .md / .txt
 *   (a Markdown list of the headlines shown in the panel)
 *
 * Writes the inspector's current findings.
 *
 * Returns: %TRUE if written
 */
gboolean
ws_inspector_panel_export_findings (WsInspectorPanel *self,
                               const char   *path,
                               GError      **error)
{
  g_autofree char *lower = NULL;
  g_autofree char *text = NULL;

  g_return_val_if_fail (WS_IS_INSPECTOR_PANEL (self), FALSE);
  g_return_val_if_fail (path != NULL, FALSE);

  if (self->findings == NULL || self->inspected_trace == NULL)
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_FAILED, _("There are no findings to export"));
      return FALSE;
    }
  lower = g_ascii_strdown (path, -1);
  if (g_str_has_suffix (lower, ".json"))
    {
      g_autoptr(JsonNode) node = ws_graph_export_findings_json (self->inspected_trace, self->findings);
      text = ws_graph_export_json_to_string (node);
    }
  else if (g_str_has_suffix (lower, ".md") || g_str_has_suffix (lower, ".txt"))
    text = findings_markdown (self);
  else
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_FILENAME,
                   _("“%s” does not end in .json, .md or .txt"), path);
      return FALSE;
    }
  return ws_export_write_text (path, text, error);
}


/* ------------------------------------------------------------------ */
/* GObject                                                              */

static void
ws_inspector_panel_dispose (GObject *object)
{
  WsInspectorPanel *self = WS_INSPECTOR_PANEL (object);
  GtkWidget *child;

  if (self->worker != NULL)
    ws_worker_drop (self->worker);
  g_clear_object (&self->worker);
  gtk_widget_dispose_template (GTK_WIDGET (self), WS_TYPE_INSPECTOR_PANEL);
  /* The template's root has no id, so dispose_template() leaves it. */
  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self))) != NULL)
    gtk_widget_unparent (child);
  g_clear_pointer (&self->findings, g_ptr_array_unref);
  g_clear_object (&self->inspected_trace);
  g_clear_object (&self->trace_to_inspect);
  g_clear_object (&self->trace);
  g_clear_object (&self->graph);

  G_OBJECT_CLASS (ws_inspector_panel_parent_class)->dispose (object);
}

static void
ws_inspector_panel_class_init (WsInspectorPanelClass *klass)
{
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  G_OBJECT_CLASS (klass)->dispose = ws_inspector_panel_dispose;

  /**
   * WsInspectorPanel::inspected:
   *
   * The findings are in (or the inspection's error is).
   */
  signals[INSPECTED] =
    g_signal_new ("inspected", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 0);

  /**
   * WsInspectorPanel::findings-changed:
   *
   * The list changed (emptied for a new inspection, or filled).
   */
  signals[FINDINGS_CHANGED] =
    g_signal_new ("findings-changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 0);

  /**
   * WsInspectorPanel::finding-selected:
   * @search: the finding's waits, as a search of the inspected trace
   */
  signals[FINDING_SELECTED] =
    g_signal_new ("finding-selected", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 1, WS_TYPE_STACK_SEARCH);

  gtk_widget_class_set_template_from_resource (widget_class, "/io/github/waitscope/Waitscope/ws-inspector-panel.ui");
  gtk_widget_class_bind_template_child (widget_class, WsInspectorPanel, inspector_scope_label);
  gtk_widget_class_bind_template_child (widget_class, WsInspectorPanel, inspector_spinner);
  gtk_widget_class_bind_template_child (widget_class, WsInspectorPanel, inspector_graph_button);
  gtk_widget_class_bind_template_child (widget_class, WsInspectorPanel, inspector_trace_button);
  gtk_widget_class_bind_template_child (widget_class, WsInspectorPanel, inspector_list);
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "inspectorpanel");
}

static void
ws_inspector_panel_init (WsInspectorPanel *self)
{
  self->scope = WS_INSPECTOR_SCOPE_GRAPH;
  self->selected_finding = WS_NONE;
  self->worker = ws_worker_new ();
  gtk_widget_init_template (GTK_WIDGET (self));

  g_signal_connect_swapped (self->inspector_graph_button, "toggled", G_CALLBACK (scope_toggled_cb), self);
  g_signal_connect_swapped (self->inspector_trace_button, "toggled", G_CALLBACK (scope_toggled_cb), self);
  g_signal_connect_swapped (self->inspector_list, "row-selected", G_CALLBACK (finding_selected_cb), self);
  ws_list_placeholder_set (self->inspector_list, _("Select a window of a thread in the timeline, or inspect the whole trace."));
}
