/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include "ws-digest.h"

#include <glib/gi18n.h>
#include <string.h>

#include "ws-awg-export.h"
#include "ws-awg-view.h"
#include "ws-contrast-page.h"
#include "ws-contrast-pin.h"
#include "ws-contrast-words.h"
#include "ws-document.h"
#include "ws-error.h"
#include "ws-duration-histogram.h"
#include "ws-export-dialog.h"
#include "ws-fleet-classes.h"
#include "ws-pattern-coverage-view.h"
#include "ws-progress-relay.h"
#include "ws-run-class-chips.h"
#include "ws-time-format.h"
#include "ws-worker.h"

#define MAX_PATTERN_ROWS 200
#define MAX_INSTANCE_ROWS 500

struct _WsContrastPage
{
  WsPage               parent_instance;

  /* Template widgets */
  GtkWidget           *root_scroller;   /* the page shrinks with the pane, never the pane with it */
  GtkDropDown         *scenario_dropdown;
  GtkEntry            *component_entry;
  GtkCheckButton      *widen_check;
  GtkDropDown         *rank_dropdown;    /* WsContrastRank order: total cost, average cost */
  GtkDropDown         *compare_dropdown; /* 0: instances by duration; 1: open traces by class */
  WsRunClassChips     *trace_classes_box; /* over the session's classes, shared with Mining */
  GtkButton           *run_button;
  GtkButton           *cancel_button;
  WsDurationHistogram *histogram;
  GtkSpinButton       *fast_spin;
  GtkSpinButton       *slow_spin;
  GtkWidget           *fast_label;
  GtkWidget           *slow_label;
  GtkLabel            *class_label;
  GtkProgressBar      *progress_bar;
  GtkLabel            *summary_label;
  GtkSearchEntry      *search_entry;
  GtkMenuButton       *export_button;
  GtkPaned            *vpaned;
  GtkLabel            *fast_title;
  GtkLabel            *slow_title;
  WsAwgView           *fast_view;
  WsAwgView           *slow_view;
  GtkListBox          *pattern_list;
  GtkListBox          *instance_list;
  GtkButton           *open_button;
  WsPatternCoverageView *coverage_view;
  GtkEntry            *impact_entry;
  GtkListBox          *impact_list;

  /* Owned references */
  GListModel          *documents;
  WsDigest            *digest;           /* a fleet opened as a digest: its traces instead of the documents */
  gboolean             spans_unread;     /* @digest is a fleet read for mining alone (ws_contrast_page_set_fleet()) */
  gboolean             reading_spans;    /* the worker reads its traces again */
  GtkWidget           *spans_bar;        /* what contrasting such a fleet needs, and the button that reads it */
  GtkLabel            *spans_label;
  GtkWidget           *spans_button;
  GtkStringList       *scenarios;
  WsInstanceSet       *instances;
  WsInstanceSet       *fast_traces;      /* by trace: the fast traces' instances, else NULL */
  WsInstanceSet       *slow_traces;
  WsTime               trace_t_fast;     /* by trace: the thresholds the classes give */
  WsTime               trace_t_slow;
  WsWorker            *worker;
  WsProgressRelay     *relay;
  WsContrastResult    *result;
  GArray              *impact;
  GArray              *shown_instances;  /* guint32, slow-class indices, as listed */
  WsInstanceSet       *result_instances; /* what the result classified, for pins */
  char                *result_scenario;
  char                *result_component;
  char                *result_impact;    /* the impact table's other components, "a; b" */
  gboolean             result_widen;
  WsContrastRank       result_rank;
  guint                selected_pattern; /* rank, or G_MAXUINT */

  gboolean             busy;
  gboolean             syncing;
};

G_DEFINE_FINAL_TYPE (WsContrastPage, ws_contrast_page, WS_TYPE_PAGE)

static void session_changed (WsPage    *page,
                             WsSession *old_session,
                             WsSession *session);

enum { SIGNAL_OPEN_READY_TREE, SIGNAL_FINISHED, N_SIGNALS };
static guint signals[N_SIGNALS];

static void
update_actions (WsContrastPage *self)
{
  gboolean have = self->instances != NULL && ws_instance_set_get_n (self->instances) > 0;

  gtk_widget_action_set_enabled (GTK_WIDGET (self), "contrast.run", have && !self->busy);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "contrast.read-spans", self->spans_unread && !self->busy);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "contrast.cancel", self->busy);
  /* A digest's instances have no events to draw a ready tree from. */
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "contrast.open-slowest",
                                 self->shown_instances != NULL && self->shown_instances->len > 0 && self->digest == NULL);
}

/* ---- scenarios and instances ---- */

static void load_instances (WsContrastPage *self);
static void refresh_trace_classes (WsContrastPage *self);

static GPtrArray *
ready_traces (WsContrastPage *self)
{
  GPtrArray *traces = g_ptr_array_new_with_free_func (g_object_unref);

  for (guint i = 0; self->documents && i < g_list_model_get_n_items (self->documents); i++)
    {
      g_autoptr(WsDocument) doc = g_list_model_get_item (self->documents, i);

      if (ws_document_get_state (doc) == WS_DOCUMENT_READY && ws_document_get_trace (doc) != NULL)
        g_ptr_array_add (traces, g_object_ref (ws_document_get_trace (doc)));
    }
  return traces;
}

/* One chip per ready trace (or per trace of a digest), in the order
 * load_trace_classes() gives the core: the first fast and the others
 * slow until the user says (the session's classes, which Mining shares). */
static void
refresh_trace_classes (WsContrastPage *self)
{
  g_autoptr(GPtrArray) paths = g_ptr_array_new ();
  g_autoptr(GPtrArray) names = g_ptr_array_new ();

  for (guint i = 0; self->digest != NULL && i < ws_digest_get_n_traces (self->digest); i++)
    {
      const WsDigestTrace *t = ws_digest_get_trace (self->digest, i);

      g_ptr_array_add (paths, t->path);
      g_ptr_array_add (names, t->name);
    }
  for (guint i = 0; self->digest == NULL && self->documents && i < g_list_model_get_n_items (self->documents); i++)
    {
      g_autoptr(WsDocument) doc = g_list_model_get_item (self->documents, i);
      WsTrace *trace;

      if (ws_document_get_state (doc) != WS_DOCUMENT_READY || (trace = ws_document_get_trace (doc)) == NULL)
        continue;
      g_ptr_array_add (paths, (gpointer) ws_trace_get_path (trace));
      g_ptr_array_add (names, (gpointer) ws_trace_get_name (trace));
    }
  ws_run_class_chips_set_traces (self->trace_classes_box, (const char * const *) paths->pdata,
                                 (const char * const *) names->pdata, paths->len);
}

static const char *
current_scenario (WsContrastPage *self)
{
  GObject *item = gtk_drop_down_get_selected_item (self->scenario_dropdown);
  return item ? gtk_string_object_get_string (GTK_STRING_OBJECT (item)) : NULL;
}

static void
update_class_label (WsContrastPage *self)
{
  g_autofree char *text = NULL;
  guint nf = 0, ns = 0;

  if (self->fast_traces != NULL)
    {
      nf = ws_instance_set_get_n (self->fast_traces);
      ns = ws_instance_set_get_n (self->slow_traces);
    }
  else
    ws_duration_histogram_count_classes (self->histogram, &nf, &ns);
  text = g_strdup_printf (_("%u fast · %u slow of %u"), nf, ns,
                          self->instances ? ws_instance_set_get_n (self->instances) : 0);
  gtk_label_set_text (self->class_label, text);
}

static gboolean
by_trace (WsContrastPage *self)
{
  return gtk_drop_down_get_selected (self->compare_dropdown) == 1;
}

/* By trace: the open traces' instances in their classes (the same core
 * call as `waitscope-cli contrast --slow/--fast`).  FALSE, with the
 * reason in the summary line, when the classes cannot be contrasted. */
static gboolean
load_trace_classes (WsContrastPage *self,
                    const char     *scenario)
{
  g_autoptr(GPtrArray) traces = g_ptr_array_new_with_free_func (g_object_unref);
  g_autoptr(GArray) classes = g_array_new (FALSE, FALSE, sizeof (WsRunClass));
  g_auto(WsFleetClasses) fleet = { 0 };
  g_autoptr(GError) error = NULL;
  gboolean built;

  guint k = 0;

  /* The chips list the traces in this order, each with the class it shows. */
  for (guint i = 0; self->digest == NULL && self->documents && i < g_list_model_get_n_items (self->documents); i++)
    {
      g_autoptr(WsDocument) doc = g_list_model_get_item (self->documents, i);
      WsRunClass klass;

      if (ws_document_get_state (doc) != WS_DOCUMENT_READY || ws_document_get_trace (doc) == NULL)
        continue;
      klass = ws_run_class_chips_get_shown (self->trace_classes_box, k++);
      g_ptr_array_add (traces, g_object_ref (ws_document_get_trace (doc)));
      g_array_append_val (classes, klass);
    }
  for (guint i = 0; self->digest != NULL && i < ws_digest_get_n_traces (self->digest); i++)
    {
      WsRunClass klass = ws_run_class_chips_get_shown (self->trace_classes_box, i);
      g_array_append_val (classes, klass);
    }
  /* A fleet read for mining alone has no wait graphs yet: the bar above says so. */
  if (self->spans_unread)
    {
      gtk_label_set_text (self->summary_label, _("First read the traces' wait graphs (above), then Analyse."));
      return FALSE;
    }
  /* A digest's: the same core call as `contrast --classes` over it. */
  built = self->digest != NULL
          ? ws_digest_fleet_classes_build (&fleet, self->digest, (const WsRunClass *) (gpointer) classes->data, NULL,
                                           scenario, &error)
          : ws_fleet_classes_build (&fleet, traces, (const WsRunClass *) (gpointer) classes->data, NULL,
                                    scenario, &error);
  if (!built)
    {
      gtk_label_set_text (self->summary_label, error->message);
      return FALSE;
    }
  g_set_object (&self->instances, fleet.all);
  g_set_object (&self->fast_traces, fleet.fast);
  g_set_object (&self->slow_traces, fleet.slow);
  self->trace_t_fast = fleet.t_fast;
  self->trace_t_slow = fleet.t_slow;
  /* Whole runs: the component defaults to their program, as the CLI's. */
  if (*gtk_editable_get_text (GTK_EDITABLE (self->component_entry)) == '\0')
    {
      g_autofree char *component = ws_instance_set_dup_default_component (fleet.all);
      if (component != NULL)
        gtk_editable_set_text (GTK_EDITABLE (self->component_entry), component);
    }
  return TRUE;
}

static void
load_instances (WsContrastPage *self)
{
  g_autoptr(GPtrArray) traces = ready_traces (self);
  g_autoptr(GArray) durations = g_array_new (FALSE, FALSE, sizeof (WsTime));
  const char *scenario = current_scenario (self);

  g_clear_object (&self->instances);
  g_clear_object (&self->fast_traces);
  g_clear_object (&self->slow_traces);
  /* By trace the classes are given, not cut from durations: the
   * histogram and its two thresholds have nothing to say, and an empty
   * histogram was a blank box above the results. */
  gtk_widget_set_visible (GTK_WIDGET (self->histogram), !by_trace (self));
  gtk_widget_set_visible (self->fast_label, !by_trace (self));
  gtk_widget_set_visible (GTK_WIDGET (self->fast_spin), !by_trace (self));
  gtk_widget_set_visible (self->slow_label, !by_trace (self));
  gtk_widget_set_visible (GTK_WIDGET (self->slow_spin), !by_trace (self));
  if (by_trace (self))
    {
      if (!load_trace_classes (self, scenario))
        self->instances = ws_instance_set_new ();
      update_class_label (self);
      update_actions (self);
      return;
    }
  self->instances = ws_instance_set_new ();
  for (guint i = 0; scenario && self->digest == NULL && i < traces->len; i++)
    ws_instance_set_add_trace (self->instances, g_ptr_array_index (traces, i), scenario);
  for (guint i = 0; scenario && self->digest != NULL && i < ws_digest_get_n_traces (self->digest); i++)
    {
      g_autoptr(GError) error = NULL;

      if (!ws_digest_add_instances (self->digest, i, scenario, NULL, self->instances, &error))
        gtk_label_set_text (self->summary_label, error->message);
    }
  for (guint i = 0; i < ws_instance_set_get_n (self->instances); i++)
    g_array_append_val (durations, ws_instance_set_get (self->instances, i)->duration);
  ws_duration_histogram_set_durations (self->histogram, (const WsTime *) (gpointer) durations->data, durations->len);
  /* The defaults the CLI proposes too: the median and the 90th percentile. */
  ws_contrast_page_set_thresholds (self,
                                   ws_instance_set_percentile (self->instances, WS_CONTRAST_FAST_PERCENTILE),
                                   ws_instance_set_percentile (self->instances, WS_CONTRAST_SLOW_PERCENTILE));
  update_class_label (self);
  update_actions (self);
}

static void
refresh_scenarios (WsContrastPage *self)
{
  g_autoptr(GPtrArray) traces = ready_traces (self);
  g_auto(GStrv) names = self->digest != NULL ? ws_digest_list_scenarios (self->digest)
                                             : ws_instance_set_list_scenarios (traces);
  g_autofree char *keep = g_strdup (current_scenario (self));
  guint n = g_list_model_get_n_items (G_LIST_MODEL (self->scenarios));

  gtk_string_list_splice (self->scenarios, 0, n, (const char * const *) names);
  for (guint i = 0; keep && names[i]; i++)
    if (g_strcmp0 (names[i], keep) == 0)
      gtk_drop_down_set_selected (self->scenario_dropdown, i);
  refresh_trace_classes (self);
  load_instances (self);
}

static void
document_state_cb (WsContrastPage *self)
{
  if (!self->busy)
    refresh_scenarios (self);
}

static void
documents_changed_cb (WsContrastPage *self)
{
  for (guint i = 0; self->documents && i < g_list_model_get_n_items (self->documents); i++)
    {
      g_autoptr(WsDocument) doc = g_list_model_get_item (self->documents, i);

      if (g_object_get_data (G_OBJECT (doc), "ws-contrast-page") == self)
        continue;
      g_object_set_data (G_OBJECT (doc), "ws-contrast-page", self);
      g_signal_connect_object (doc, "notify::state", G_CALLBACK (document_state_cb), self, G_CONNECT_SWAPPED);
    }
  refresh_scenarios (self);
}

/* ---- thresholds ---- */

static void
histogram_changed_cb (WsContrastPage *self)
{
  WsTime tf, ts;

  ws_duration_histogram_get_thresholds (self->histogram, &tf, &ts);
  self->syncing = TRUE;
  gtk_spin_button_set_value (self->fast_spin, tf / 1e6);
  gtk_spin_button_set_value (self->slow_spin, ts / 1e6);
  self->syncing = FALSE;
  update_class_label (self);
}

static void
spin_changed_cb (WsContrastPage *self)
{
  if (self->syncing)
    return;
  ws_duration_histogram_set_thresholds (self->histogram,
                                        (WsTime) (gtk_spin_button_get_value (self->fast_spin) * 1e6),
                                        (WsTime) (gtk_spin_button_get_value (self->slow_spin) * 1e6));
}

/* ---- the analysis, off the main thread ---- */

typedef struct {
  WsInstanceSet *instances;
  WsInstanceSet *fast;       /* by trace: the classes given outright */
  WsInstanceSet *slow;
  char          *scenario;
  char          *component;
  gboolean       widen;
  WsContrastRank rank;
  WsTime         t_fast;
  WsTime         t_slow;
  GStrv          impact_components;
  WsProgressRelay *relay;
} Job;

typedef struct {
  WsContrastResult *result;
  GArray           *impact;
} Outcome;

static void
job_free (gpointer data)
{
  Job *job = data;

  g_clear_object (&job->instances);
  g_clear_object (&job->fast);
  g_clear_object (&job->slow);
  g_free (job->scenario);
  g_free (job->component);
  g_strfreev (job->impact_components);
  g_clear_object (&job->relay);
  g_free (job);
}

static void
outcome_free (gpointer data)
{
  Outcome *o = data;

  g_clear_object (&o->result);
  g_clear_pointer (&o->impact, g_array_unref);
  g_free (o);
}

static void
analyse_thread (GTask        *task,
                gpointer      source,
                gpointer      data,
                GCancellable *cancellable)
{
  Job *job = data;
  Outcome *o = g_new0 (Outcome, 1);
  WsContrastSettings s = { 0 };
  WsImpactSettings is = { 0 };
  GError *error = NULL;

  s.component = job->component;
  s.widen = job->widen;
  s.rank = job->rank;
  s.t_fast = job->t_fast;
  s.t_slow = job->t_slow;
  if (job->fast != NULL)
    {
      s.fast = job->fast;
      s.slow = job->slow;
    }
  else
    s.instances = job->instances;
  o->result = ws_contrast_run (&s, cancellable, ws_progress_relay_report, job->relay, &error);
  /* Impact analysis needs the traces' events (which waits are the same
   * wait): a digest's instances have none. */
  if (o->result != NULL && ws_instance_set_get_n (job->instances) > 0
      && ws_instance_set_get (job->instances, 0)->trace != NULL)
    {
      is.components = (const char * const *) job->impact_components;
      o->impact = ws_impact_run (job->instances, &is, cancellable, NULL, NULL, &error);
    }
  if (error != NULL)
    {
      outcome_free (o);
      g_task_return_error (task, error);
      return;
    }
  g_task_return_pointer (task, o, outcome_free);
}

static void
set_busy (WsContrastPage *self, gboolean busy)
{
  self->busy = busy;
  gtk_widget_set_visible (GTK_WIDGET (self->progress_bar), busy);
  gtk_widget_set_visible (GTK_WIDGET (self->cancel_button), busy);
  update_actions (self);
  if (busy)
    {
      gtk_progress_bar_set_fraction (self->progress_bar, 0);
      gtk_progress_bar_set_text (self->progress_bar, _("Building wait graphs"));
    }
}

/* @data is a weak reference: a job may report after the page is gone. */
static void
progress_cb (double fraction, const char *message, gpointer data)
{
  WsContrastPage *self = data;

  if (!self->busy)
    return;
  if (fraction >= 0)
    gtk_progress_bar_set_fraction (self->progress_bar, fraction);
  if (message != NULL)
    gtk_progress_bar_set_text (self->progress_bar, message);
}

static char *
format_set (WsSignatures *sigs, const WsSigId *v, guint n)
{
  GString *s = g_string_new ("{");

  for (guint i = 0; i < n; i++)
    g_string_append_printf (s, "%s%s", i ? ", " : "", ws_signatures_get_name (sigs, v[i]));
  g_string_append_c (s, '}');
  return g_string_free (s, FALSE);
}

static GtkWidget *
pattern_row (WsContrastResult *r, guint rank)
{
  const WsContrastPattern *p = ws_contrast_result_get_pattern (r, rank);
  WsSignatures *sigs = ws_contrast_result_get_signatures (r);
  g_autofree char *w = format_set (sigs, p->w, p->n_w);
  g_autofree char *u = format_set (sigs, p->u, p->n_u);
  g_autofree char *run = format_set (sigs, p->r, p->n_r);
  g_autofree char *cost = ws_contrast_pattern_dup_cost (p);
  g_autofree char *bare = ws_contrast_pattern_dup_terms (p);
  /* Translators: a tooltip; %s is "C (total cost) …, N (executions) …" */
  g_autofree char *terms = g_strdup_printf (_("In the paper's terms: %s"), bare);
  g_autofree char *markup = g_markup_printf_escaped (
    _("<b>#%u</b>  %s%s\n"
      "<small>wait %s\nunwait %s\nrunning <b>%s</b></small>"),
    rank + 1, cost, p->high_impact ? _(" · high impact") : "", w, u, run);
  GtkWidget *label = gtk_label_new (NULL);

  gtk_label_set_markup (GTK_LABEL (label), markup);
  gtk_widget_set_tooltip_text (label, terms);
  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_label_set_wrap (GTK_LABEL (label), TRUE);
  gtk_widget_set_margin_top (label, 3);
  gtk_widget_set_margin_bottom (label, 3);
  return label;
}

static void
list_clear (GtkListBox *list)
{
  GtkWidget *child;

  while ((child = gtk_widget_get_first_child (GTK_WIDGET (list))) != NULL)
    gtk_list_box_remove (list, child);
}

static void
show_impact (WsContrastPage *self)
{
  list_clear (self->impact_list);
  for (guint i = 0; self->impact && i < self->impact->len; i++)
    {
      const WsImpact *m = &g_array_index (self->impact, WsImpact, i);
      g_autofree char *words = ws_impact_dup_words (m);
      g_autofree char *terms = ws_impact_dup_terms (m);
      g_autofree char *markup = g_markup_printf_escaped ("<b>%s</b>\n%s", m->component, words);
      GtkWidget *label = gtk_label_new (NULL);

      gtk_label_set_markup (GTK_LABEL (label), markup);
      gtk_label_set_xalign (GTK_LABEL (label), 0);
      gtk_label_set_wrap (GTK_LABEL (label), TRUE);
      gtk_widget_set_tooltip_text (label, terms);
      gtk_list_box_append (self->impact_list, label);
    }
}

static void
show_summary (WsContrastPage *self)
{
  WsContrastResult *r = self->result;
  g_autofree char *text = ws_contrast_result_dup_summary (r, self->fast_traces != NULL);
  g_autofree char *terms = ws_contrast_result_dup_terms (r);
  g_autofree char *ft = NULL, *st = NULL;
  guint n_fast_nodes = ws_awg_get_n_nodes (ws_contrast_result_get_awg_fast (r));
  guint n_slow_nodes = ws_awg_get_n_nodes (ws_contrast_result_get_awg_slow (r));

  /* What the numbers mean in words, the paper's terms in the tooltip
   * (both from core: the CLI prints the same sentence). */
  gtk_label_set_text (self->summary_label, text);
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->summary_label), terms);
  /* Translators: the title over the fast instances' aggregated wait graph (AWG) */
  ft = g_strdup_printf (ngettext ("Fast instances' waits — %u node", "Fast instances' waits — %u nodes", n_fast_nodes),
                        n_fast_nodes);
  st = g_strdup_printf (ngettext ("Slow instances' waits — %u node", "Slow instances' waits — %u nodes", n_slow_nodes),
                        n_slow_nodes);
  gtk_label_set_text (self->fast_title, ft);
  gtk_label_set_text (self->slow_title, st);
}

static void
show_result (WsContrastPage *self)
{
  guint n = ws_contrast_result_get_n_patterns (self->result);

  self->selected_pattern = G_MAXUINT;
  ws_awg_view_set_awg (self->fast_view, ws_contrast_result_get_awg_fast (self->result));
  ws_awg_view_set_awg (self->slow_view, ws_contrast_result_get_awg_slow (self->result));
  list_clear (self->pattern_list);
  list_clear (self->instance_list);
  for (guint i = 0; i < MIN (n, MAX_PATTERN_ROWS); i++)
    gtk_list_box_append (self->pattern_list, pattern_row (self->result, i));
  show_summary (self);
  show_impact (self);
  ws_pattern_coverage_view_set_result (self->coverage_view, self->result);
  gtk_widget_set_sensitive (GTK_WIDGET (self->export_button), TRUE);
  g_clear_pointer (&self->shown_instances, g_array_unref);
  update_actions (self);
  if (n > 0)
    ws_contrast_page_select_pattern (self, 0);
}

/* The worker calls this for the newest run only: a superseded run's
 * result is dropped before it gets here. */
static void
analyse_done (gpointer  owner,
              gpointer  result,
              GError   *error,
              gpointer  job)
{
  WsContrastPage *self = owner;
  Outcome *o = result;
  Job *j = job;

  set_busy (self, FALSE);
  if (o == NULL)
    {
      if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED)
          && !g_error_matches (error, WS_ERROR, WS_ERROR_CANCELLED))
        gtk_label_set_text (self->summary_label, error->message);
      else
        gtk_label_set_text (self->summary_label, _("Cancelled."));
      g_signal_emit (self, signals[SIGNAL_FINISHED], 0);
      return;
    }
  g_set_object (&self->result, o->result);
  g_set_object (&self->result_instances, j->instances);
  g_free (self->result_scenario);
  self->result_scenario = g_strdup (j->scenario);
  g_free (self->result_component);
  self->result_component = g_strdup (j->component);
  self->result_widen = j->widen;
  self->result_rank = j->rank;
  g_free (self->result_impact);
  self->result_impact = g_strjoinv ("; ", j->impact_components + 1);   /* [0] is the component */
  g_clear_pointer (&self->impact, g_array_unref);
  self->impact = g_steal_pointer (&o->impact);
  outcome_free (o);
  show_result (self);
  g_signal_emit (self, signals[SIGNAL_FINISHED], 0);
}

static GStrv
impact_components (WsContrastPage *self, const char *component)
{
  g_autoptr(GStrvBuilder) b = g_strv_builder_new ();
  g_auto(GStrv) more = g_strsplit (gtk_editable_get_text (GTK_EDITABLE (self->impact_entry)), ";", -1);

  g_strv_builder_add (b, component);
  for (guint i = 0; more[i]; i++)
    {
      g_strstrip (more[i]);
      if (*more[i])
        g_strv_builder_add (b, more[i]);
    }
  return g_strv_builder_end (b);
}

void
ws_contrast_page_run (WsContrastPage *self)
{
  const char *component;
  Job *job;

  g_return_if_fail (WS_IS_CONTRAST_PAGE (self));

  component = gtk_editable_get_text (GTK_EDITABLE (self->component_entry));
  if (self->instances == NULL || ws_instance_set_get_n (self->instances) == 0 || *component == '\0')
    {
      gtk_label_set_text (self->summary_label, _("Choose a scenario with instances and give components first."));
      return;
    }

  job = g_new0 (Job, 1);
  job->instances = g_object_ref (self->instances);
  job->scenario = g_strdup (current_scenario (self));
  job->component = g_strdup (component);
  job->widen = gtk_check_button_get_active (self->widen_check);
  job->rank = gtk_drop_down_get_selected (self->rank_dropdown) == 1 ? WS_CONTRAST_RANK_AVERAGE : WS_CONTRAST_RANK_TOTAL;
  if (self->fast_traces != NULL)
    {
      job->fast = g_object_ref (self->fast_traces);
      job->slow = g_object_ref (self->slow_traces);
      job->t_fast = self->trace_t_fast;
      job->t_slow = self->trace_t_slow;
    }
  else
    {
      ws_duration_histogram_get_thresholds (self->histogram, &job->t_fast, &job->t_slow);
      job->t_fast = MAX (job->t_fast, 1);
      job->t_slow = MAX (job->t_slow, job->t_fast);
    }
  job->impact_components = impact_components (self, component);
  job->relay = g_object_ref (self->relay);

  set_busy (self, TRUE);
  ws_worker_run (self->worker, self, job, job_free, analyse_thread, analyse_done);
}

static void
cancel_clicked_cb (WsContrastPage *self)
{
  ws_worker_cancel (self->worker);
}

/* ---- a chosen pattern ---- */

static int
compare_duration_desc (gconstpointer a, gconstpointer b, gpointer data)
{
  WsInstanceSet *set = data;
  WsTime x = ws_instance_set_get (set, *(const guint32 *) a)->duration;
  WsTime y = ws_instance_set_get (set, *(const guint32 *) b)->duration;
  return x > y ? -1 : x < y;
}

static void
list_instances (WsContrastPage *self, guint rank)
{
  WsInstanceSet *slow = ws_contrast_result_get_slow (self->result);

  g_clear_pointer (&self->shown_instances, g_array_unref);
  self->shown_instances = ws_contrast_result_dup_pattern_instances (self->result, rank);
  g_array_sort_with_data (self->shown_instances, compare_duration_desc, slow);
  list_clear (self->instance_list);
  for (guint i = 0; i < MIN (self->shown_instances->len, MAX_INSTANCE_ROWS); i++)
    {
      const WsInstanceRef *ref = ws_instance_set_get (slow, g_array_index (self->shown_instances, guint32, i));
      g_autofree char *d = ws_format_duration (ref->duration);
      g_autofree char *text = NULL;
      GtkWidget *label;

      if (ref->trace != NULL)
        {
          const WsThread *thread = ws_trace_get_thread (ref->trace, ref->span.thread);

          text = g_strdup_printf (_("%s · %s %d · %s"), ws_trace_get_name (ref->trace),
                                  thread->name ? thread->name : "?", thread->tid, d);
        }
      else
        /* Translators: a digest's instance: its program and duration */
        text = g_strdup_printf (_("%s · %s (a digest: no events)"), ref->program, d);
      label = gtk_label_new (text);

      gtk_label_set_xalign (GTK_LABEL (label), 0);
      gtk_list_box_append (self->instance_list, label);
    }
  update_actions (self);
}

void
ws_contrast_page_select_pattern (WsContrastPage *self,
                                 guint           rank)
{
  const WsContrastPattern *p;
  GtkListBoxRow *row;

  g_return_if_fail (WS_IS_CONTRAST_PAGE (self));
  if (self->result == NULL || rank >= ws_contrast_result_get_n_patterns (self->result))
    return;

  p = ws_contrast_result_get_pattern (self->result, rank);
  self->selected_pattern = rank;
  ws_awg_view_set_highlight (self->slow_view, p->slow_leaves);
  ws_awg_view_set_highlight (self->fast_view, p->fast_leaves);
  list_instances (self, rank);
  row = gtk_list_box_get_row_at_index (self->pattern_list, rank);
  if (row != NULL && gtk_list_box_get_selected_row (self->pattern_list) != row)
    gtk_list_box_select_row (self->pattern_list, row);
}

static void
pattern_selected_cb (WsContrastPage *self, GtkListBoxRow *row)
{
  if (row != NULL)
    ws_contrast_page_select_pattern (self, gtk_list_box_row_get_index (row));
}

static void
emit_ready_tree (WsContrastPage *self, guint slow_index)
{
  const WsInstanceRef *ref = ws_instance_set_get (ws_contrast_result_get_slow (self->result), slow_index);

  if (ref->trace == NULL)
    return;
  g_signal_emit (self, signals[SIGNAL_OPEN_READY_TREE], 0, ref->trace, ref->span.thread, ref->span.t0, ref->span.t1);
}

static void
open_clicked_cb (WsContrastPage *self)
{
  if (self->shown_instances != NULL && self->shown_instances->len > 0)
    emit_ready_tree (self, g_array_index (self->shown_instances, guint32, 0));   /* sorted slowest first */
}

static void
instance_activated_cb (WsContrastPage *self, GtkListBoxRow *row)
{
  guint i = gtk_list_box_row_get_index (row);

  if (self->shown_instances != NULL && i < self->shown_instances->len)
    emit_ready_tree (self, g_array_index (self->shown_instances, guint32, i));
}

/**
 * ws_contrast_page_set_digest:
 * @digest: (nullable): a fleet opened as a digest; %NULL: back to the open
 *   traces
 *
 * Contrasts @digest's traces instead of the open ones: their scenarios,
 * or with "open traces, slow against fast" one chip per trace of the
 * digest (the first fast, the others slow, until changed).
 */
void
ws_contrast_page_set_digest (WsContrastPage *self,
                             WsDigest       *digest)
{
  g_return_if_fail (WS_IS_CONTRAST_PAGE (self));

  /* A fleet's traces still being read again: not for this one. */
  if (self->reading_spans)
    ws_worker_cancel (self->worker);
  self->spans_unread = FALSE;
  gtk_widget_set_visible (self->spans_bar, FALSE);
  g_clear_pointer (&self->digest, ws_digest_unref);
  if (digest != NULL)
    {
      g_auto(GStrv) names = ws_digest_list_scenarios (digest);

      self->digest = ws_digest_ref (digest);
      /* The chips first: choosing "by trace" below reads their classes. */
      refresh_trace_classes (self);
      /* A fleet without scenarios is contrasted run against run. */
      if (names[0] == NULL)
        gtk_drop_down_set_selected (self->compare_dropdown, 1);
    }
  refresh_scenarios (self);
}

/* ---- a fleet read for mining alone: its wait graphs when asked ---- */

/* What the reading thread reads: copies, never the page. */
typedef struct {
  WsDigest        *fleet;    /* the fleet asked for: compared on the main thread, never read in the thread */
  GStrv            paths;
  GStrv            hashes;
  WsProgressRelay *relay;
} SpansJob;

typedef struct {
  WsDigest  *digest;
  GPtrArray *failed;   /* GError */
} SpansRead;

static void
spans_job_free (gpointer data)
{
  SpansJob *job = data;

  g_clear_pointer (&job->fleet, ws_digest_unref);
  g_strfreev (job->paths);
  g_strfreev (job->hashes);
  g_clear_object (&job->relay);
  g_free (job);
}

static void
spans_read_free (gpointer data)
{
  SpansRead *read = data;

  g_clear_pointer (&read->digest, ws_digest_unref);
  g_clear_pointer (&read->failed, g_ptr_array_unref);
  g_free (read);
}

static void
spans_thread (GTask        *task,
              gpointer      source,
              gpointer      data,
              GCancellable *cancellable)
{
  SpansJob *job = data;
  SpansRead *read = g_new0 (SpansRead, 1);
  GError *error = NULL;

  read->failed = g_ptr_array_new_with_free_func ((GDestroyNotify) g_error_free);
  read->digest = ws_digest_load_spans (job->paths, job->hashes, ws_progress_relay_report, job->relay,
                                       read->failed, cancellable, &error);
  if (read->digest == NULL)
    {
      spans_read_free (read);
      g_task_return_error (task, error);
      return;
    }
  g_task_return_pointer (task, read, spans_read_free);
}

/* The newest read only (WsWorker). */
static void
spans_done (gpointer  owner,
            gpointer  result,
            GError   *error,
            gpointer  job_data)
{
  WsContrastPage *self = owner;
  SpansJob *job = job_data;
  SpansRead *read = result;
  g_autoptr(GString) left_out = NULL;

  self->reading_spans = FALSE;
  set_busy (self, FALSE);
  /* Another fleet, or none, since it was asked for. */
  if (job->fleet != self->digest || !self->spans_unread)
    {
      g_clear_pointer (&read, spans_read_free);
      return;
    }
  if (read == NULL)
    {
      gtk_label_set_text (self->summary_label,
                          g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED)
                          || g_error_matches (error, WS_ERROR, WS_ERROR_CANCELLED)
                          ? _("Stopped reading the traces again: contrasting them still needs their wait graphs.")
                          : error->message);
      g_signal_emit (self, signals[SIGNAL_FINISHED], 0);
      return;
    }
  /* The mining page keeps the fleet as it was; this page contrasts the
   * traces read again, which are the fleet's (their content checked). */
  g_clear_pointer (&self->digest, ws_digest_unref);
  self->digest = g_steal_pointer (&read->digest);
  self->spans_unread = FALSE;
  /* Never silently: each trace left out, with why, stays in view. */
  gtk_widget_set_visible (self->spans_button, FALSE);
  gtk_widget_set_visible (self->spans_bar, read->failed->len > 0);
  if (read->failed->len > 0)
    {
      left_out = g_string_new (_("Left out of the contrast, not as the fleet was opened:"));
      for (guint i = 0; i < read->failed->len; i++)
        g_string_append_printf (left_out, "\n%s", ((const GError *) g_ptr_array_index (read->failed, i))->message);
      gtk_label_set_text (self->spans_label, left_out->str);
    }
  {
    guint n = ws_digest_get_n_traces (self->digest);
    g_autofree char *done = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                                          "The wait graphs of %u trace were read: mark the traces slow "
                                                          "and fast, give components, then Analyse.",
                                                          "The wait graphs of %u traces were read: mark the traces slow "
                                                          "and fast, give components, then Analyse.", n), n);

    gtk_label_set_text (self->summary_label, done);
  }
  spans_read_free (read);
  refresh_scenarios (self);
  g_signal_emit (self, signals[SIGNAL_FINISHED], 0);
}

/* Reads the fleet's traces again for their thread spans, in the background. */
static void
read_spans_action (GtkWidget  *widget,
                   const char *action_name,
                   GVariant   *param)
{
  WsContrastPage *self = WS_CONTRAST_PAGE (widget);
  g_autoptr(GStrvBuilder) paths = g_strv_builder_new ();
  g_autoptr(GStrvBuilder) hashes = g_strv_builder_new ();
  SpansJob *job;

  if (!self->spans_unread || self->busy)
    return;
  for (guint i = 0; i < ws_digest_get_n_traces (self->digest); i++)
    {
      const WsDigestTrace *t = ws_digest_get_trace (self->digest, i);

      g_strv_builder_add (paths, t->path);
      g_strv_builder_add (hashes, t->content_hash);
    }
  job = g_new0 (SpansJob, 1);
  job->fleet = ws_digest_ref (self->digest);
  job->paths = g_strv_builder_end (paths);
  job->hashes = g_strv_builder_end (hashes);
  job->relay = g_object_ref (self->relay);
  self->reading_spans = TRUE;
  set_busy (self, TRUE);
  gtk_progress_bar_set_text (self->progress_bar, _("Reading the traces again for their wait graphs"));
  ws_worker_run (self->worker, self, job, spans_job_free, spans_thread, spans_done);
}

/* The line that says what contrasting a fleet read for mining alone
 * needs, with its button; hidden until such a fleet is given. */
static void
build_spans_bar (WsContrastPage *self)
{
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);

  self->spans_label = GTK_LABEL (gtk_label_new (NULL));
  gtk_label_set_wrap (self->spans_label, TRUE);
  gtk_label_set_xalign (self->spans_label, 0);
  gtk_label_set_selectable (self->spans_label, TRUE);
  gtk_widget_set_hexpand (GTK_WIDGET (self->spans_label), TRUE);
  self->spans_button = gtk_button_new_with_mnemonic (_("_Read the Wait Graphs"));
  gtk_widget_set_valign (self->spans_button, GTK_ALIGN_CENTER);
  gtk_actionable_set_action_name (GTK_ACTIONABLE (self->spans_button), "contrast.read-spans");
  gtk_box_append (GTK_BOX (box), GTK_WIDGET (self->spans_label));
  gtk_box_append (GTK_BOX (box), self->spans_button);
  gtk_widget_set_visible (box, FALSE);
  /* Above the progress bar, which shows the reading as it goes. */
  gtk_widget_insert_before (box, gtk_widget_get_parent (GTK_WIDGET (self->progress_bar)),
                            GTK_WIDGET (self->progress_bar));
  self->spans_bar = box;
}

/**
 * ws_contrast_page_set_fleet:
 * @fleet: a fleet opened from traces for mining alone: its digest holds
 *   no contrast instances (%WS_DIGEST_READ_SKIP_INSTANCES)
 *
 * ws_contrast_page_set_digest() for such a fleet: its traces get their
 * chips at once; a line says that contrasting them needs their wait
 * graphs, about how much memory that takes, and offers to read the traces
 * again for them (in the background, "Trace k of n", with Cancel).  Once
 * read, the page contrasts the traces as a fleet that kept its thread
 * spans is contrasted; a trace moved or changed since is named and left
 * out (ws_digest_load_spans()).
 */
void
ws_contrast_page_set_fleet (WsContrastPage *self,
                            WsDigest       *fleet)
{
  g_autofree char *size = NULL, *text = NULL;

  g_return_if_fail (WS_IS_CONTRAST_PAGE (self));
  g_return_if_fail (fleet != NULL);

  ws_contrast_page_set_digest (self, NULL);
  self->digest = ws_digest_ref (fleet);
  self->spans_unread = TRUE;
  size = g_format_size (ws_digest_guess_span_bytes (fleet));
  /* Translators: %s is an amount of memory, e.g. "5.5 MB" */
  text = g_strdup_printf (_("Contrasting these traces needs each run's wait graphs, about %s a trace, which the fleet "
                            "let go to stay small: read the traces again for them."), size);
  gtk_label_set_text (self->spans_label, text);
  gtk_widget_set_visible (self->spans_button, TRUE);
  gtk_widget_set_visible (self->spans_bar, TRUE);
  refresh_trace_classes (self);
  /* Whole runs: a fleet opened from traces has no scenario instances. */
  gtk_drop_down_set_selected (self->compare_dropdown, 1);
  refresh_scenarios (self);
}

/**
 * ws_contrast_page_get_digest:
 *
 * Returns: (nullable) (transfer none): the fleet the page contrasts: the
 *   traces read again for their spans once they are
 */
WsDigest *
ws_contrast_page_get_digest (WsContrastPage *self)
{
  g_return_val_if_fail (WS_IS_CONTRAST_PAGE (self), NULL);
  return self->digest;
}

/* ---- search and export ---- */

static void
search_changed_cb (WsContrastPage *self)
{
  const char *text = gtk_editable_get_text (GTK_EDITABLE (self->search_entry));
  g_autoptr(GRegex) regex = *text ? g_regex_new (text, G_REGEX_CASELESS, 0, NULL) : NULL;
  guint nf = ws_awg_view_set_search (self->fast_view, regex);
  guint ns = ws_awg_view_set_search (self->slow_view, regex);
  g_autofree char *tip = regex ? g_strdup_printf (ngettext ("%u match in AWG fast, %u in AWG slow",
                                                                    "%u matches in AWG fast, %u in AWG slow", nf), nf, ns) : NULL;

  gtk_widget_set_tooltip_text (GTK_WIDGET (self->search_entry), tip);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->search_entry), GTK_ACCESSIBLE_PROPERTY_DESCRIPTION,
                                  tip ? tip : "", -1);
}

static gboolean
export_view (WsAwgView *view, const char *path, GError **error)
{
  WsAwgRenderer *renderer = ws_awg_view_get_renderer (view);

  if (renderer == NULL)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED, _("Nothing to export yet"));
      return FALSE;
    }
  return ws_awg_renderer_export (renderer, path, error);
}

static gboolean
export_fast (GtkWidget *widget, const char *path, GError **error)
{
  return export_view (WS_CONTRAST_PAGE (widget)->fast_view, path, error);
}

static gboolean
export_slow (GtkWidget *widget, const char *path, GError **error)
{
  return export_view (WS_CONTRAST_PAGE (widget)->slow_view, path, error);
}

static gboolean
export_slow_data (GtkWidget *widget, const char *path, GError **error)
{
  WsContrastPage *self = WS_CONTRAST_PAGE (widget);
  WsAwg *awg = self->result ? ws_contrast_result_get_awg_slow (self->result) : NULL;
  g_autofree char *text = NULL;

  if (awg == NULL)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED, _("Nothing to export yet"));
      return FALSE;
    }
  if (g_str_has_suffix (path, ".json"))
    {
      g_autoptr(JsonBuilder) b = json_builder_new ();
      g_autoptr(JsonGenerator) gen = json_generator_new ();
      g_autoptr(JsonNode) root = NULL;

      ws_awg_export_json (awg, b);
      root = json_builder_get_root (b);
      json_generator_set_root (gen, root);
      json_generator_set_pretty (gen, TRUE);
      text = json_generator_to_data (gen, NULL);
    }
  else
    text = ws_awg_export_dot (awg, "awg-slow", NULL);
  return ws_export_write_text (path, text, error);
}

static void
export_action (GtkWidget *widget, const char *action, GVariant *param)
{
  if (g_str_equal (action, "contrast.export-fast"))
    ws_export_dialog_show (widget, _("Export AWG fast"), "awg-fast.svg", export_fast, NULL);
  else if (g_str_equal (action, "contrast.export-slow"))
    ws_export_dialog_show (widget, _("Export AWG slow"), "awg-slow.svg", export_slow, NULL);
  else
    ws_export_dialog_show (widget, _("Export AWG slow data"), "awg-slow.dot", export_slow_data, NULL);
}

static void
run_action (GtkWidget *widget, const char *action, GVariant *param)
{
  WsContrastPage *self = WS_CONTRAST_PAGE (widget);

  if (g_str_equal (action, "contrast.run"))
    ws_contrast_page_run (self);
  else if (g_str_equal (action, "contrast.cancel"))
    cancel_clicked_cb (self);
  else
    open_clicked_cb (self);
}

/* The graphs get 58 % of the pane's height whenever it is resized: a
 * position given before the first allocation is not kept. */
static void
pane_max_cb (WsContrastPage *self)
{
  int max = 0;

  g_object_get (self->vpaned, "max-position", &max, NULL);

  int height = gtk_widget_get_height (GTK_WIDGET (self->vpaned));

  if (max > 100 && height > 0)
    gtk_paned_set_position (self->vpaned, MIN (max, height * 58 / 100));
}

/* ---- GObject ---- */

static void
ws_contrast_page_dispose (GObject *object)
{
  WsContrastPage *self = WS_CONTRAST_PAGE (object);

  g_clear_pointer (&self->digest, ws_digest_unref);

  /* A job still running: its late reports and result land nowhere. */
  if (self->worker)
    ws_worker_drop (self->worker);
  self->busy = FALSE;
  if (self->documents)
    g_signal_handlers_disconnect_by_data (self->documents, self);
  if (self->relay)
    ws_progress_relay_cancel_pending (self->relay);
  g_clear_object (&self->relay);
  g_clear_object (&self->worker);
  g_clear_object (&self->documents);
  g_clear_object (&self->instances);
  g_clear_object (&self->fast_traces);
  g_clear_object (&self->slow_traces);
  g_clear_object (&self->result);
  g_clear_pointer (&self->impact, g_array_unref);
  g_clear_pointer (&self->shown_instances, g_array_unref);
  g_clear_object (&self->result_instances);
  g_clear_pointer (&self->result_scenario, g_free);
  g_clear_pointer (&self->result_component, g_free);
  g_clear_pointer (&self->result_impact, g_free);
  g_clear_pointer (&self->root_scroller, gtk_widget_unparent);
  G_OBJECT_CLASS (ws_contrast_page_parent_class)->dispose (object);
}

static void
ws_contrast_page_class_init (WsContrastPageClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  WsPageClass *page_class = WS_PAGE_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  page_class->session_changed = session_changed;
  ws_contrast_pin_class_init (page_class);
  ws_page_class_set_title (page_class, N_("Contrast"));
  ws_page_class_set_icon_name (page_class, "view-dual-symbolic");
  object_class->dispose = ws_contrast_page_dispose;

  /**
   * WsContrastPage::open-ready-tree:
   * @trace: the trace of the instance
   * @thread: its thread index
   * @t0: its start
   * @t1: its end
   *
   * The user asked for the ready tree of a slow instance.
   */
  signals[SIGNAL_OPEN_READY_TREE] = g_signal_new ("open-ready-tree", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                                                  0, NULL, NULL, NULL, G_TYPE_NONE, 4,
                                                  WS_TYPE_TRACE, G_TYPE_UINT, G_TYPE_INT64, G_TYPE_INT64);

  /**
   * WsContrastPage::finished:
   *
   * An analysis ended: its result shown, or failed or cancelled.
   */
  signals[SIGNAL_FINISHED] = g_signal_new ("finished", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                                           0, NULL, NULL, NULL, G_TYPE_NONE, 0);

  g_type_ensure (WS_TYPE_AWG_VIEW);
  g_type_ensure (WS_TYPE_DURATION_HISTOGRAM);
  g_type_ensure (WS_TYPE_PATTERN_COVERAGE_VIEW);
  g_type_ensure (WS_TYPE_RUN_CLASS_CHIPS);
  gtk_widget_class_set_template_from_resource (widget_class, "/io/github/waitscope/Waitscope/ws-contrast-page.ui");
  gtk_widget_class_bind_template_child (widget_class, WsContrastPage, root_scroller);
  gtk_widget_class_bind_template_child (widget_class, WsContrastPage, scenario_dropdown);
  gtk_widget_class_bind_template_child (widget_class, WsContrastPage, component_entry);
  gtk_widget_class_bind_template_child (widget_class, WsContrastPage, widen_check);
  gtk_widget_class_bind_template_child (widget_class, WsContrastPage, rank_dropdown);
  gtk_widget_class_bind_template_child (widget_class, WsContrastPage, compare_dropdown);
  gtk_widget_class_bind_template_child (widget_class, WsContrastPage, trace_classes_box);
  gtk_widget_class_bind_template_child (widget_class, WsContrastPage, run_button);
  gtk_widget_class_bind_template_child (widget_class, WsContrastPage, cancel_button);
  gtk_widget_class_bind_template_child (widget_class, WsContrastPage, histogram);
  gtk_widget_class_bind_template_child (widget_class, WsContrastPage, fast_spin);
  gtk_widget_class_bind_template_child (widget_class, WsContrastPage, slow_spin);
  gtk_widget_class_bind_template_child (widget_class, WsContrastPage, fast_label);
  gtk_widget_class_bind_template_child (widget_class, WsContrastPage, slow_label);
  gtk_widget_class_bind_template_child (widget_class, WsContrastPage, class_label);
  gtk_widget_class_bind_template_child (widget_class, WsContrastPage, progress_bar);
  gtk_widget_class_bind_template_child (widget_class, WsContrastPage, summary_label);
  gtk_widget_class_bind_template_child (widget_class, WsContrastPage, search_entry);
  gtk_widget_class_bind_template_child (widget_class, WsContrastPage, export_button);
  gtk_widget_class_bind_template_child (widget_class, WsContrastPage, vpaned);
  gtk_widget_class_bind_template_child (widget_class, WsContrastPage, fast_title);
  gtk_widget_class_bind_template_child (widget_class, WsContrastPage, slow_title);
  gtk_widget_class_bind_template_child (widget_class, WsContrastPage, fast_view);
  gtk_widget_class_bind_template_child (widget_class, WsContrastPage, slow_view);
  gtk_widget_class_bind_template_child (widget_class, WsContrastPage, pattern_list);
  gtk_widget_class_bind_template_child (widget_class, WsContrastPage, instance_list);
  gtk_widget_class_bind_template_child (widget_class, WsContrastPage, open_button);
  gtk_widget_class_bind_template_child (widget_class, WsContrastPage, coverage_view);
  gtk_widget_class_bind_template_child (widget_class, WsContrastPage, impact_entry);
  gtk_widget_class_bind_template_child (widget_class, WsContrastPage, impact_list);
  gtk_widget_class_install_action (widget_class, "contrast.run", NULL, run_action);
  gtk_widget_class_install_action (widget_class, "contrast.cancel", NULL, run_action);
  gtk_widget_class_install_action (widget_class, "contrast.open-slowest", NULL, run_action);
  gtk_widget_class_install_action (widget_class, "contrast.read-spans", NULL, read_spans_action);
  gtk_widget_class_install_action (widget_class, "contrast.export-fast", NULL, export_action);
  gtk_widget_class_install_action (widget_class, "contrast.export-slow", NULL, export_action);
  gtk_widget_class_install_action (widget_class, "contrast.export-slow-data", NULL, export_action);
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "contrastpage");
}

static void
compare_changed_cb (WsContrastPage *self)
{
  gtk_widget_set_visible (GTK_WIDGET (self->trace_classes_box), by_trace (self));
  load_instances (self);
}

/* Another order for the patterns shown: run again with it (the same
 * classes and graphs, so the patterns are the same, reordered). */
static void
rank_changed_cb (WsContrastPage *self)
{
  if (self->result != NULL && !self->busy)
    ws_contrast_page_run (self);
}

static void
ws_contrast_page_init (WsContrastPage *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
  build_spans_bar (self);
  /* Two classes before the user says anything: the first trace fast, the
   * others slow (a trace marked, here or on the Mining page, keeps its). */
  ws_run_class_chips_set_first_fast (self->trace_classes_box, TRUE);

  self->scenarios = gtk_string_list_new (NULL);
  gtk_drop_down_set_model (self->scenario_dropdown, G_LIST_MODEL (self->scenarios));
  g_object_unref (self->scenarios);   /* the drop-down holds it */
  self->relay = ws_progress_relay_new_for_owner (self, progress_cb);
  self->worker = ws_worker_new ();

  g_signal_connect_swapped (self->scenario_dropdown, "notify::selected", G_CALLBACK (load_instances), self);
  g_signal_connect_swapped (self->histogram, "thresholds-changed", G_CALLBACK (histogram_changed_cb), self);
  g_signal_connect_swapped (self->fast_spin, "value-changed", G_CALLBACK (spin_changed_cb), self);
  g_signal_connect_swapped (self->slow_spin, "value-changed", G_CALLBACK (spin_changed_cb), self);
  g_signal_connect_swapped (self->component_entry, "activate", G_CALLBACK (ws_contrast_page_run), self);
  g_signal_connect_swapped (self->rank_dropdown, "notify::selected", G_CALLBACK (rank_changed_cb), self);
  g_signal_connect_swapped (self->compare_dropdown, "notify::selected", G_CALLBACK (compare_changed_cb), self);
  g_signal_connect_swapped (self->pattern_list, "row-selected", G_CALLBACK (pattern_selected_cb), self);
  g_signal_connect_swapped (self->instance_list, "row-activated", G_CALLBACK (instance_activated_cb), self);
  g_signal_connect_swapped (self->search_entry, "search-changed", G_CALLBACK (search_changed_cb), self);
  g_signal_connect_swapped (self->vpaned, "notify::max-position", G_CALLBACK (pane_max_cb), self);
  self->selected_pattern = G_MAXUINT;
  update_actions (self);
  update_class_label (self);
}

GtkWidget *
ws_contrast_page_new (void)
{
  return g_object_new (WS_TYPE_CONTRAST_PAGE, NULL);
}

void
ws_contrast_page_set_documents (WsContrastPage *self,
                                GListModel     *documents)
{
  g_return_if_fail (WS_IS_CONTRAST_PAGE (self));

  if (self->documents)
    g_signal_handlers_disconnect_by_data (self->documents, self);
  g_set_object (&self->documents, documents);
  if (documents)
    g_signal_connect_swapped (documents, "items-changed", G_CALLBACK (documents_changed_cb), self);
  documents_changed_cb (self);
}

/* Classes marked here or on the Mining page, or loaded from a file. */
static void
run_classes_changed_cb (WsContrastPage *self)
{
  if (by_trace (self) && !self->busy)
    load_instances (self);
}

static void
session_changed (WsPage    *page,
                 WsSession *old_session,
                 WsSession *session)
{
  WsContrastPage *self = WS_CONTRAST_PAGE (page);

  g_return_if_fail (WS_IS_CONTRAST_PAGE (self));
  g_return_if_fail (session == NULL || WS_IS_SESSION (session));

  if (old_session != NULL)
    g_signal_handlers_disconnect_by_func (ws_session_get_run_classes (old_session), run_classes_changed_cb, self);
  if (session != NULL)
    g_signal_connect_object (ws_session_get_run_classes (session), "changed", G_CALLBACK (run_classes_changed_cb),
                             self, G_CONNECT_SWAPPED);
  ws_run_class_chips_set_classes (self->trace_classes_box, session ? ws_session_get_run_classes (session) : NULL);
  ws_contrast_page_set_documents (self, session ? ws_session_get_documents (session) : NULL);
}

void
ws_contrast_page_set_scenario (WsContrastPage *self,
                               const char     *scenario)
{
  guint n;

  g_return_if_fail (WS_IS_CONTRAST_PAGE (self));
  n = g_list_model_get_n_items (G_LIST_MODEL (self->scenarios));
  for (guint i = 0; i < n; i++)
    if (g_strcmp0 (gtk_string_list_get_string (self->scenarios, i), scenario) == 0)
      gtk_drop_down_set_selected (self->scenario_dropdown, i);
}

void
ws_contrast_page_set_component (WsContrastPage *self,
                                const char     *component)
{
  g_return_if_fail (WS_IS_CONTRAST_PAGE (self));
  gtk_editable_set_text (GTK_EDITABLE (self->component_entry), component ? component : "");
}

void
ws_contrast_page_set_impact_components (WsContrastPage *self,
                                        const char     *components)
{
  g_return_if_fail (WS_IS_CONTRAST_PAGE (self));
  gtk_editable_set_text (GTK_EDITABLE (self->impact_entry), components ? components : "");
}

/* The components the impact table of the result shown was made with
 * besides the analysed one, as typed ("a; b"), or NULL without a result. */
const char *
ws_contrast_page_get_result_impact_components (WsContrastPage *self)
{
  g_return_val_if_fail (WS_IS_CONTRAST_PAGE (self), NULL);
  return self->result != NULL ? self->result_impact : NULL;
}

void
ws_contrast_page_set_thresholds (WsContrastPage *self,
                                 WsTime          t_fast,
                                 WsTime          t_slow)
{
  g_return_if_fail (WS_IS_CONTRAST_PAGE (self));
  ws_duration_histogram_set_thresholds (self->histogram, t_fast, t_slow);
  histogram_changed_cb (self);
}

gboolean
ws_contrast_page_get_busy (WsContrastPage *self)
{
  g_return_val_if_fail (WS_IS_CONTRAST_PAGE (self), FALSE);
  return self->busy;
}

WsContrastResult *
ws_contrast_page_get_result (WsContrastPage *self)
{
  g_return_val_if_fail (WS_IS_CONTRAST_PAGE (self), NULL);
  return self->result;
}

void
ws_contrast_page_set_widen (WsContrastPage *self,
                            gboolean        widen)
{
  g_return_if_fail (WS_IS_CONTRAST_PAGE (self));
  gtk_check_button_set_active (self->widen_check, widen);
}

void
ws_contrast_page_set_rank (WsContrastPage *self,
                           WsContrastRank  rank)
{
  g_return_if_fail (WS_IS_CONTRAST_PAGE (self));
  gtk_drop_down_set_selected (self->rank_dropdown, rank == WS_CONTRAST_RANK_AVERAGE ? 1 : 0);
}

/* The rank of the pattern chosen in the list, or G_MAXUINT. */
guint
ws_contrast_page_get_selected_pattern (WsContrastPage *self)
{
  g_return_val_if_fail (WS_IS_CONTRAST_PAGE (self), G_MAXUINT);
  return self->result != NULL ? self->selected_pattern : G_MAXUINT;
}

/**
 * ws_contrast_page_get_result_settings:
 * @instances: (out) (transfer none): the instances the result classified
 * @scenario: (out) (transfer none): their scenario
 * @settings: (out): the component and widening it ran with (strings
 *   borrowed from the page)
 *
 * What the result shown was made from, for a pin.
 *
 * Returns: %FALSE when there is no result
 */
gboolean
ws_contrast_page_get_result_settings (WsContrastPage      *self,
                                      WsInstanceSet      **instances,
                                      const char         **scenario,
                                      WsContrastSettings  *settings)
{
  g_return_val_if_fail (WS_IS_CONTRAST_PAGE (self), FALSE);
  if (self->result == NULL || self->result_scenario == NULL)
    return FALSE;
  *instances = self->result_instances;
  *scenario = self->result_scenario;
  memset (settings, 0, sizeof *settings);
  settings->component = self->result_component;
  settings->widen = self->result_widen;
  settings->rank = self->result_rank;
  settings->instances = self->result_instances;
  return TRUE;
}
