/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The Overview page (ws-overview-page.h): what ws_overview_compute() finds,
 * as clickable rows.  The computation runs in a GTask thread; a newer run
 * cancels the older one and a generation counter drops stale results.
 */
#include "config.h"

#include <adwaita.h>
#include <glib/gi18n.h>
#include <string.h>

#include "ws-analysis-kind.h"
#include "ws-anomaly-state.h"
#include "ws-cause-ended.h"
#include "ws-list-placeholder.h"
#include "ws-timing.h"
#include "ws-mining-request.h"
#include "ws-overview-page.h"
#include "ws-thread-picker.h"
#include "ws-overview.h"
#include "ws-symptom.h"
#include "ws-time-format.h"
#include "ws-why-targets.h"
#include "ws-worker.h"

#define N_CAUSES_SHOWN 5
#define N_BINS 40

struct _WsOverviewPage
{
  WsPage          parent_instance;

  /* Template widgets */
  GtkWidget      *scroller;
  GtkSpinner     *spinner;
  GtkLabel       *status_label;
  GtkLabel       *pick_label;
  GtkLabel       *causes_title;
  GtkListBox     *causes_list;
  GtkLabel       *causes_placeholder;  /* what the causes list says while empty */
  GtkLabel       *cluster_placeholder;
  GtkLabel       *contrast_placeholder;
  GtkLabel       *cluster_title;
  GtkListBox     *cluster_list;
  GtkBox         *extra_box;
  GtkLabel       *instances_title;
  GtkDrawingArea *histogram;
  GtkListBox     *slowest_list;
  GtkListBox     *contrast_list;   /* the sections added below the cluster */
  GtkListBox     *anomaly_list;

  /* Owned references */
  WsOverview     *overview;
  WsOverviewContrast *contrast;
  WsOverviewCluster *cluster;    /* the Mining page's first row, or NULL */
  WsMiningPage   *mining_page;   /* weak: whose settings the cluster is mined with */
  WsWorker       *worker;        /* the computation, one at a time */
  GHashTable     *watched;       /* WsDocument whose state we follow */
  guint           idle_id;
  guint           generation;
  gboolean        busy;

  /* What is explained: the current trace, or every open trace when the
   * user asks; the program the picker chose, or the runner-up asked for;
   * or a selection (a thread window, a wait) explained on its own. */
  GtkCheckButton *all_check;
  GtkLabel       *explaining_label;
  GtkButton      *back_button;
  GtkButton      *runner_button;
  gboolean        all_traces;
  char           *choice;          /* program name asked for, or NULL */
  WsAttribution  *selection;       /* the selection's attribution, or NULL */
  GArray         *selection_targets;
  char           *explaining;      /* what the selection is */
};

G_DEFINE_FINAL_TYPE (WsOverviewPage, ws_overview_page, WS_TYPE_PAGE)

static void session_changed (WsPage    *page,
                             WsSession *old_session,
                             WsSession *session);

/* The window's session (WsPage's): %NULL until the window binds it. */
static WsSession *
session_of (WsOverviewPage *self)
{
  return ws_page_get_session (WS_PAGE (self));
}

enum { SIGNAL_SHOW_ANALYSIS, SIGNAL_SHOW_MINING, SIGNAL_SHOW_CONTRAST, N_SIGNALS };

/* What a row opens: an analysis (a WsAnalysisKind), or one of these. */
enum { TARGET_MINING = -1, TARGET_CONTRAST = -2 };
static guint signals[N_SIGNALS];

/* What a row opens when activated. */
typedef struct {
  int      kind;        /* WsAnalysisKind, or -1 for the Mining page */
  WsTrace *trace;       /* owned */
  guint    thread;
  gint64   t0;
  gint64   t1;
} RowTarget;

static void
row_target_free (gpointer data)
{
  RowTarget *t = data;

  g_clear_object (&t->trace);
  g_free (t);
}

/* Removes the rows, not the placeholder (a child of the list too, which
 * must still say why the list is empty). */
static void
clear_list (GtkListBox *list)
{
  GtkWidget *child = gtk_widget_get_first_child (GTK_WIDGET (list));

  while (child != NULL)
    {
      GtkWidget *next = gtk_widget_get_next_sibling (child);

      if (GTK_IS_LIST_BOX_ROW (child))
        gtk_list_box_remove (list, child);
      child = next;
    }
}

static void
row_activated_cb (WsOverviewPage *self,
                  GtkListBoxRow  *row)
{
  RowTarget *t = g_object_get_data (G_OBJECT (row), "ws-target");

  if (t == NULL)
    return;
  if (t->kind == TARGET_MINING)
    g_signal_emit (self, signals[SIGNAL_SHOW_MINING], 0);
  else if (t->kind == TARGET_CONTRAST && self->contrast != NULL)
    g_signal_emit (self, signals[SIGNAL_SHOW_CONTRAST], 0, self->contrast->scenario, self->contrast->component);
  else if (t->kind >= 0)
    g_signal_emit (self, signals[SIGNAL_SHOW_ANALYSIS], 0, t->kind, t->trace, t->thread, t->t0, t->t1);
}

static void
add_row (GtkListBox  *list,
         const char  *title,
         const char  *subtitle,
         int          kind,
         const WsAttributionTarget *target)
{
  GtkWidget *row = adw_action_row_new ();
  RowTarget *t = g_new0 (RowTarget, 1);

  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), title);
  adw_preferences_row_set_use_markup (ADW_PREFERENCES_ROW (row), FALSE);
  if (subtitle != NULL)
    adw_action_row_set_subtitle (ADW_ACTION_ROW (row), subtitle);
  adw_action_row_add_suffix (ADW_ACTION_ROW (row), gtk_image_new_from_icon_name ("go-next-symbolic"));
  gtk_list_box_row_set_activatable (GTK_LIST_BOX_ROW (row), TRUE);
  t->kind = kind;
  if (target != NULL)
    {
      t->trace = g_object_ref (target->trace);
      t->thread = target->symptom.thread;
      t->t0 = target->symptom.t0;
      t->t1 = target->symptom.t1;
    }
  g_object_set_data_full (G_OBJECT (row), "ws-target", t, row_target_free);
  gtk_list_box_append (list, row);
}

/* ------------------------------------------------------------------ */
/* Filling the page                                                     */

/* A thread for a row: "name tid", and its trace's name when several
 * traces are explained together. */
static void
append_thread (GString  *s,
               WsTrace  *trace,
               guint     thread,
               gboolean  with_trace)
{
  const WsThread *th = ws_trace_get_thread (trace, thread);

  g_string_append_printf (s, "%s %d", th->name ? th->name : "?", th->tid);
  if (with_trace)
    g_string_append_printf (s, " (%s)", ws_trace_get_name (trace));
}

static char *
thread_names (const WsCause *c,
              gboolean       with_trace)
{
  GString *s = g_string_new (NULL);

  for (guint k = 0; k < c->threads->len && k < 3; k++)
    {
      const WsCauseThread *t = &g_array_index (c->threads, WsCauseThread, k);
      if (k > 0)
        g_string_append (s, ", ");
      append_thread (s, t->trace, t->thread, with_trace);
    }
  if (c->threads->len > 3)
    g_string_append_printf (s, ngettext (" and %u more thread", " and %u more threads", c->threads->len - 3),
                            c->threads->len - 3);
  return g_string_free (s, FALSE);
}

/* The first target whose window the cause was read from: the slowest. */
static gboolean
several_traces (WsOverviewPage *self)
{
  return self->all_traces && session_of (self) != NULL &&
         g_list_model_get_n_items (ws_session_get_documents (session_of (self))) > 1;
}

static WsAttribution *
shown_attribution (WsOverviewPage *self)
{
  return self->selection != NULL ? self->selection : ws_overview_get_attribution (self->overview);
}

static void
fill_causes (WsOverviewPage *self)
{
  WsAttribution *attr = shown_attribution (self);
  GArray *targets = self->selection != NULL ? self->selection_targets : ws_overview_get_targets (self->overview);
  g_autofree char *total = ws_format_duration (ws_attribution_get_total (attr));
  g_autofree char *title = g_strdup_printf (_("Top causes over %s (%s in all)"),
                                            self->selection != NULL ? self->explaining
                                            : ws_overview_get_explained (self->overview), total);

  gtk_label_set_text (self->causes_title, title);
  clear_list (self->causes_list);
  for (guint i = 0; i < ws_attribution_get_n_causes (attr) && i < N_CAUSES_SHOWN; i++)
    {
      const WsCause *c = ws_attribution_get_cause (attr, i);
      g_autofree char *time = ws_format_duration (c->time);
      g_autofree char *who = thread_names (c, several_traces (self));
      g_autofree char *row_title = g_strdup_printf ("%.1f %%  %s", 100.0 * c->share, c->label);
      g_autofree char *subtitle = NULL;

      g_autofree char *behind = ws_cause_describe_behind (c, 3);

      if (c->kernel_function != NULL && g_strcmp0 (c->kernel_function, c->signature) != 0)
        subtitle = g_strdup_printf (_("%s on %s; in the kernel: %s — show the critical path"), time, who, c->kernel_function);
      else
        subtitle = g_strdup_printf (_("%s on %s — show the critical path"), time, who);
      g_autofree char *ended = ws_cause_dup_ended (c);

      if (ended != NULL)
        {
          /* what ended its waits, in the glossary's words */
          g_autofree char *with = g_strdup_printf ("%s; %s", subtitle, ended);
          g_free (subtitle);
          subtitle = g_steal_pointer (&with);
        }
      if (behind != NULL)
        {
          /* the step behind the cause: who else had the disk or the CPUs */
          g_autofree char *with = g_strdup_printf ("%s\n%s", subtitle, behind);
          g_free (subtitle);
          subtitle = g_steal_pointer (&with);
        }
      add_row (self->causes_list, row_title, subtitle, WS_ANALYSIS_CRITICAL_PATH,
               targets->len > 0 ? &g_array_index (targets, WsAttributionTarget, 0) : NULL);
    }
}

static void
fill_slowest (WsOverviewPage *self)
{
  guint n = 0;
  const WsTime *durations = ws_overview_get_durations (self->overview, &n);

  clear_list (self->slowest_list);
  if (n == 0)
    {
      gtk_label_set_text (self->instances_title,
                          _("No scenario instances (no transaction or other scenario markers in the traces): "
                            "the causes are those of the threads named beside them."));
      gtk_widget_set_visible (GTK_WIDGET (self->histogram), FALSE);
      return;
    }
  {
    g_autofree char *p50 = ws_format_duration (durations[n / 2]);
    g_autofree char *p90 = ws_format_duration (durations[MIN (n - 1, n * 9 / 10)]);
    g_autofree char *max = ws_format_duration (durations[n - 1]);
    g_autofree char *title = g_strdup_printf (ngettext ("%u scenario instance: median %s, 90th percentile %s, slowest %s",
                                                        "%u scenario instances: median %s, 90th percentile %s, slowest %s", n),
                                              n, p50, p90, max);
    gtk_label_set_text (self->instances_title, title);
  }
  gtk_widget_set_visible (GTK_WIDGET (self->histogram), TRUE);
  for (guint i = 0; i < ws_overview_get_n_slowest (self->overview); i++)
    {
      const WsOverviewInstance *inst = ws_overview_get_slowest (self->overview, i);
      g_autofree char *d = ws_format_duration (inst->target.symptom.t1 - inst->target.symptom.t0);
      const WsThread *th = ws_trace_get_thread (inst->target.trace, inst->target.symptom.thread);
      g_autofree char *title = several_traces (self)
                               ? g_strdup_printf (_("Instance %u of %s: %s (%s %d)"), inst->target.instance,
                                                  ws_trace_get_name (inst->target.trace), d, th->name ? th->name : "?", th->tid)
                               : g_strdup_printf (_("Instance %u: %s (%s %d)"), inst->target.instance, d,
                                                  th->name ? th->name : "?", th->tid);
      g_autofree char *subtitle = g_strdup_printf (_("Top cause: %s (%.0f %%) — show the ready tree"),
                                                   inst->top_cause ? inst->top_cause : "?", 100.0 * inst->top_share);

      add_row (self->slowest_list, title, subtitle, WS_ANALYSIS_READY_TREE, &inst->target);
    }
  gtk_widget_queue_draw (GTK_WIDGET (self->histogram));
}

static void
fill_cluster (WsOverviewPage *self)
{
  const WsOverviewCluster *c = self->cluster;
  g_autofree char *left = NULL;
  g_autofree char *title = NULL;

  clear_list (self->cluster_list);
  if (c == NULL)
    return;
  left = ws_format_duration (c->left_out_time);
  title = g_strdup_printf (ngettext ("What kept other threads waiting most, by cause (not counting %llu wait, %s, that delayed no other thread)",
                                     "What kept other threads waiting most, by cause (not counting %llu waits, %s, that delayed no other thread)",
                                     c->n_left_out),
                           (unsigned long long) c->n_left_out, left);
  gtk_label_set_text (self->cluster_title, title);
  {
    /* What "left out" means, in words. */
    g_autofree char *why = g_strdup_printf (ngettext ("%llu wait, %s in all, delayed no other thread: a thread idle "
                                                      "until there was work (a pool, a loop waiting for requests). "
                                                      "It is left out so that the cluster shows what held work up.",
                                                      "%llu waits, %s in all, delayed no other thread: threads idle "
                                                      "until there was work (a pool, a loop waiting for requests). "
                                                      "They are left out so that the cluster shows what held work up.",
                                                      c->n_left_out),
                                            (unsigned long long) c->n_left_out, left);
    gtk_widget_set_tooltip_text (GTK_WIDGET (self->cluster_title), why);
  }
  if (c->label != NULL)
    {
      g_autofree char *cost = ws_format_duration (c->total_cost);
      g_autofree char *row_title = g_strdup_printf (_("Waiting in %s"), c->label);
      g_autofree char *subtitle = g_strdup_printf (ngettext ("%s in %llu waits, %u pattern — open in Mining",
                                                             "%s in %llu waits, %u patterns — open in Mining",
                                                             c->n_patterns),
                                                   cost, (unsigned long long) c->n_events, c->n_patterns);
      g_autofree char *tooltip = g_strjoinv ("\n", c->frames);

      add_row (self->cluster_list, row_title, subtitle, TARGET_MINING, NULL);
      gtk_widget_set_tooltip_text (gtk_widget_get_last_child (GTK_WIDGET (self->cluster_list)), tooltip);
    }
}

/* The top contrast pattern: the Contrast page, run on the same scenario
 * and component, lists it first. */
static void
fill_contrast (WsOverviewPage *self)
{
  const WsOverviewContrast *c = self->contrast;
  g_autofree char *fast = NULL, *slow = NULL, *per = NULL, *subtitle = NULL;

  clear_list (self->contrast_list);
  if (c == NULL || c->pattern == NULL)
    return;
  fast = ws_format_duration (c->t_fast);
  slow = ws_format_duration (c->t_slow);
  per = ws_format_duration (c->cost_per_occurrence);
  subtitle = g_strdup_printf (ngettext ("%s per occurrence, %llu occurrence%s; component “%s”, the %u slow instances "
                                        "(≥ %s) against the %u fast (≤ %s) — open in Contrast",
                                        "%s per occurrence, %llu occurrences%s; component “%s”, the %u slow instances "
                                        "(≥ %s) against the %u fast (≤ %s) — open in Contrast",
                                        c->occurrences),
                              per, (unsigned long long) c->occurrences,
                              c->high_impact ? _(", high impact") : "",
                              c->component, c->n_slow, slow, c->n_fast, fast);
  add_row (self->contrast_list, c->pattern, subtitle, TARGET_CONTRAST, NULL);
}

/* Anomalous waits that delayed nobody are left out of the summary, as the
 * thread picker leaves them out: perf waiting for its `sleep`, kernel
 * workers idling, daemons waiting for work, and sleeps that ended on their
 * own timer (a 1.5 s nanosleep is what the program asked for). */
static gboolean
worth_showing (WsTrace *trace,
               guint    event)
{
  WsFrameClassifier *classifier = ws_frame_classifier_get_default ();
  guint thread = ws_trace_get_event (trace, event)->thread;

  return ws_thread_picker_is_candidate (trace, classifier, thread) &&
         ws_frame_classifier_classify_wake (classifier, trace, event, NULL) != WS_WAKE_TIMER;
}

/* The most surprising anomalous wait of @result (lowest P(D ≥ d)), and how
 * many waits are anomalous in all (those worth showing).  Returns the
 * trace index, or WS_NONE. */
static guint
worst_anomaly (WsAnomalyResult    *result,
               const WsWaitScore **worst,
               guint              *n_anomalous)
{
  guint worst_trace = WS_NONE;

  *worst = NULL;
  *n_anomalous = 0;
  for (guint t = 0; t < ws_anomaly_result_get_n_traces (result); t++)
    {
      WsTrace *trace = ws_anomaly_result_get_trace (result, t);
      guint n = 0;
      const WsWaitScore *scores = ws_anomaly_result_get_scores (result, t, &n);

      for (guint i = 0; i < n; i++)
        {
          if (!scores[i].anomalous || !worth_showing (trace, scores[i].event))
            continue;
          (*n_anomalous)++;
          if (*worst == NULL || scores[i].score < (*worst)->score)
            {
              *worst = &scores[i];
              worst_trace = t;
            }
        }
    }
  return worst_trace;
}

/* The anomaly summary, from the session's anomaly state (scored in the
 * background like this page): a click opens the worst wait's ready tree,
 * where the anomalous waits are marked. */
static void
fill_anomalies (WsOverviewPage *self)
{
  WsAnomalyState *state = session_of (self) ? ws_session_get_anomaly_state (session_of (self)) : NULL;
  WsAnomalyResult *result = state ? ws_anomaly_state_get_result (state) : NULL;
  const WsWaitScore *worst = NULL;
  guint n = 0, trace_index;
  WsAttributionTarget target = { NULL, { 0 }, WS_NONE };

  clear_list (self->anomaly_list);
  if (result == NULL || (trace_index = worst_anomaly (result, &worst, &n)) == WS_NONE)
    return;
  target.trace = ws_anomaly_result_get_trace (result, trace_index);
  {
    const WsEvent *e = ws_trace_get_event (target.trace, worst->event);
    const WsThread *th = ws_trace_get_thread (target.trace, e->thread);
    const WsAnomalyModel *model = ws_anomaly_result_get_model (result, worst->model);
    g_autofree char *d = ws_format_duration (MAX (ws_event_duration (e), 0));
    g_autofree char *title = g_strdup_printf (ngettext ("%u anomalous wait that another thread or a device ended; "
                                                        "the most unusual: %s in %s",
                                                        "%u anomalous waits that another thread or a device ended; "
                                                        "the most unusual: %s in %s", n),
                                              n, d, model->key);
    g_autofree char *subtitle = g_strdup_printf (_("%s %d, P(as long or longer) = %.2g — show its ready tree"),
                                                 th->name ? th->name : "?", th->tid, worst->score);

    target.symptom.thread = e->thread;
    target.symptom.t0 = e->time;
    target.symptom.t1 = e->time + MAX (ws_event_duration (e), 0);
    add_row (self->anomaly_list, title, subtitle, WS_ANALYSIS_READY_TREE, &target);
  }
}

/* The "explaining: …" line, the way back, and the switch to the runner-up. */
static void
fill_explaining (WsOverviewPage *self)
{
  const WsThreadPick *pick = self->overview != NULL ? ws_overview_get_pick (self->overview, 0) : NULL;
  WsSession *session = session_of (self);
  WsDocument *current = session != NULL ? ws_session_get_current_document (session) : NULL;
  g_autofree char *text = NULL;

  if (self->selection != NULL)
    text = g_strdup_printf (_("Explaining: %s."), self->explaining);
  else if (self->choice != NULL)
    text = g_strdup_printf (_("Explaining: the program %s, as asked."), self->choice);
  else if (several_traces (self))
    text = g_strdup (_("Explaining: every open trace together; each row names its trace."));
  else if (current != NULL)
    text = g_strdup_printf (_("Explaining: the selected trace, %s."), ws_document_get_title (current));
  gtk_label_set_text (self->explaining_label, text != NULL ? text : "");
  gtk_widget_set_visible (GTK_WIDGET (self->explaining_label), text != NULL);
  gtk_widget_set_visible (GTK_WIDGET (self->back_button), self->selection != NULL || self->choice != NULL);
  gtk_widget_set_visible (GTK_WIDGET (self->all_check),
                          session != NULL && g_list_model_get_n_items (ws_session_get_documents (session)) > 1);
  if (pick != NULL && pick->runner_up != NULL && self->selection == NULL && !several_traces (self))
    {
      g_autofree char *label = g_strdup_printf (_("Explain %s instead"), pick->runner_up);
      gtk_button_set_label (self->runner_button, label);
      g_object_set_data_full (G_OBJECT (self->runner_button), "ws-program", g_strdup (pick->runner_up), g_free);
      gtk_widget_set_visible (GTK_WIDGET (self->runner_button), TRUE);
    }
  else
    gtk_widget_set_visible (GTK_WIDGET (self->runner_button), FALSE);
}

static void
fill (WsOverviewPage *self)
{
  WsAttribution *attr = shown_attribution (self);

  ws_timing_mark ("answer-shown");
  if (ws_attribution_get_n_causes (attr) > 0)
    {
      g_autofree char *text = g_strdup_printf (_("Mostly %s."), ws_attribution_get_cause (attr, 0)->label);
      gtk_label_set_text (self->status_label, text);
    }
  else if (!ws_overview_get_has_waits (self->overview))
    gtk_label_set_text (self->status_label,
                        _("No waits can be seen: these traces have no scheduler events (sched_switch), only CPU samples. "
                          "The Flame Graph shows where the CPUs went."));
  else
    gtk_label_set_text (self->status_label, _("Nothing waited in these traces."));
  gtk_label_set_text (self->pick_label, ws_overview_get_pick_reason (self->overview)
                                        ? ws_overview_get_pick_reason (self->overview) : "");
  gtk_widget_set_visible (GTK_WIDGET (self->pick_label),
                          self->selection == NULL && ws_overview_get_pick_reason (self->overview) != NULL);
  fill_explaining (self);
  fill_causes (self);
  fill_slowest (self);
  fill_cluster (self);
  fill_contrast (self);
  fill_anomalies (self);
}

/* ------------------------------------------------------------------ */
/* The histogram                                                        */

static void
draw_histogram (GtkDrawingArea *area,
                cairo_t        *cr,
                int             width,
                int             height,
                gpointer        user_data)
{
  WsOverviewPage *self = user_data;
  guint counts[N_BINS] = { 0 }, n = 0, peak = 1;
  const WsTime *d;
  GdkRGBA fg;

  if (self->overview == NULL || (d = ws_overview_get_durations (self->overview, &n), n == 0))
    return;
  for (guint i = 0; i < n; i++)
    {
      guint b = MIN (N_BINS - 1, (guint) ((double) d[i] / MAX (1, d[n - 1]) * N_BINS));
      peak = MAX (peak, ++counts[b]);
    }
  gtk_style_context_get_color (gtk_widget_get_style_context (GTK_WIDGET (area)), &fg);
  for (guint b = 0; b < N_BINS; b++)
    {
      double h = (height - 14.0) * counts[b] / peak;
      double bw = (double) width / N_BINS;

      /* The slowest 10 % (what the causes explain) stand out. */
      cairo_set_source_rgba (cr, 0.21, 0.52, 0.89, b >= N_BINS * 0.9 || (double) b / N_BINS * d[n - 1] >= d[n * 9 / 10] ? 1.0 : 0.55);
      cairo_rectangle (cr, b * bw + 1, height - 14 - h, bw - 2, h);
      cairo_fill (cr);
    }
  {
    g_autofree char *max = ws_format_duration (d[n - 1]);
    cairo_set_source_rgba (cr, fg.red, fg.green, fg.blue, 0.7);
    cairo_set_font_size (cr, 10);
    cairo_move_to (cr, 0, height - 2);
    cairo_show_text (cr, "0");
    cairo_move_to (cr, MAX (0, width - 8.0 * strlen (max)), height - 2);
    cairo_show_text (cr, max);
  }
}

/* ------------------------------------------------------------------ */
/* Computing                                                            */

typedef struct {
  GWeakRef            owner;      /* the page, for the early answer */
  GPtrArray          *traces;
  char               *choice;
  guint               generation;
  WsMiningRequest    *mining;     /* nullable: the Mining page's settings */
  WsOverviewContrast *contrast;   /* out */
  WsOverviewCluster  *cluster;    /* out */
} Job;

static void
job_free (Job *job)
{
  g_weak_ref_clear (&job->owner);
  g_ptr_array_unref (job->traces);
  g_free (job->choice);
  g_clear_pointer (&job->mining, ws_mining_request_free);
  ws_overview_contrast_free (job->contrast);
  ws_overview_cluster_free (job->cluster);
  g_free (job);
}

/* The top cluster: the Mining page's own run (ws_mining_request_run(),
 * the core's ws_mining_run() with the page's settings, the history
 * store's function weights and the default scope its click mines), or,
 * with no Mining page, the core's defaults.  Its first cluster is the
 * page's first row. */
static WsOverviewCluster *
mine_top_cluster (Job          *job,
                  GCancellable *cancellable)
{
  g_autoptr(WsMiningResult) run = NULL;

  if (job->mining == NULL)
    return ws_overview_top_cluster (job->traces, NULL, cancellable, NULL);
  run = ws_mining_request_run (job->mining, cancellable, NULL);
  return run != NULL ? ws_overview_cluster_from_run (run) : NULL;
}

/* The answer of `why`, shown as soon as it is ready: mining and the
 * contrast (seconds on a big trace) fill their blocks after it. */
typedef struct {
  GWeakRef        self;         /* the page may close meanwhile */
  guint           generation;
  WsOverview     *overview;
} EarlyAnswer;

static void
early_answer_free (gpointer data)
{
  EarlyAnswer *e = data;

  g_weak_ref_clear (&e->self);
  g_object_unref (e->overview);
  g_free (e);
}

static gboolean
early_answer_cb (gpointer data)
{
  EarlyAnswer *e = data;
  g_autoptr(WsOverviewPage) self = g_weak_ref_get (&e->self);

  if (self == NULL || e->generation != self->generation || !self->busy)
    return G_SOURCE_REMOVE;   /* gone, superseded, or the whole answer came first */
  g_set_object (&self->overview, e->overview);
  g_clear_pointer (&self->cluster, ws_overview_cluster_free);
  g_clear_pointer (&self->contrast, ws_overview_contrast_free);
  gtk_label_set_text (self->cluster_placeholder, _("Mining the waits that delayed other threads…"));
  gtk_label_set_text (self->contrast_placeholder, _("Contrasting the slow instances with the fast ones…"));
  fill (self);
  return G_SOURCE_REMOVE;
}

static void
compute_thread (GTask        *task,
                gpointer      source,
                gpointer      data,
                GCancellable *cancellable)
{
  Job *job = data;
  WsAttributionSettings settings;
  GError *error = NULL;
  WsOverview *overview;

  ws_attribution_settings_init (&settings);
  settings.cancellable = cancellable;
  {
    WsPickChoice choice = { job->choice, 0 };
    overview = ws_overview_compute_for (job->traces, &settings, job->choice != NULL ? &choice : NULL, &error);
  }
  if (overview != NULL)
    {
      EarlyAnswer *early = g_new0 (EarlyAnswer, 1);
      /* Alive here: the worker holds the page until its answer is in. */
      g_autoptr(GObject) owner = g_weak_ref_get (&job->owner);

      g_weak_ref_init (&early->self, owner);
      early->generation = job->generation;
      early->overview = g_object_ref (overview);
      g_main_context_invoke_full (NULL, G_PRIORITY_DEFAULT, early_answer_cb, early, early_answer_free);
    }
  /* The cluster and contrast lines are more answers: if one fails, the
   * others stand. */
  if (overview != NULL)
    job->cluster = mine_top_cluster (job, cancellable);
  if (overview != NULL)
    job->contrast = ws_overview_top_contrast (job->traces, NULL, cancellable, NULL);
  if (overview == NULL)
    g_task_return_error (task, error);
  else
    g_task_return_pointer (task, overview, g_object_unref);
}

/* The newest job's answer only (the worker drops the others). */
static void
compute_done (gpointer  owner,
              gpointer  result,
              GError   *error,
              gpointer  data)
{
  WsOverviewPage *self = WS_OVERVIEW_PAGE (owner);
  Job *job = data;
  g_autoptr(WsOverview) overview = result;

  self->busy = FALSE;
  gtk_spinner_stop (self->spinner);
  gtk_label_set_text (self->causes_placeholder, _("No cause: nothing held these threads up."));
  gtk_label_set_text (self->cluster_placeholder, _("No costly pattern among the waits that delayed another thread."));
  gtk_label_set_text (self->contrast_placeholder,
                      _("No scenario instances to contrast, or no pattern only the slow ones have."));
  if (overview == NULL)
    {
      if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        gtk_label_set_text (self->status_label, error->message);
      return;
    }
  g_set_object (&self->overview, overview);
  g_clear_pointer (&self->contrast, ws_overview_contrast_free);
  self->contrast = g_steal_pointer (&job->contrast);
  g_clear_pointer (&self->cluster, ws_overview_cluster_free);
  self->cluster = g_steal_pointer (&job->cluster);
  fill (self);
}

static gboolean
recompute_idle (gpointer data)
{
  WsOverviewPage *self = data;
  GListModel *docs = session_of (self) ? ws_session_get_documents (session_of (self)) : NULL;
  Job *job;

  self->idle_id = 0;
  self->generation++;

  job = g_new0 (Job, 1);
  g_weak_ref_init (&job->owner, self);
  job->traces = g_ptr_array_new_with_free_func (g_object_unref);
  job->generation = self->generation;
  job->choice = g_strdup (self->choice);
  /* The selected trace only, unless the user asked for every open trace
   * together (then every row names its trace). */
  for (guint i = 0; docs != NULL && i < g_list_model_get_n_items (docs); i++)
    {
      g_autoptr(WsDocument) doc = g_list_model_get_item (docs, i);
      if (ws_document_get_state (doc) == WS_DOCUMENT_READY && ws_document_get_trace (doc) != NULL &&
          (self->all_traces || doc == ws_session_get_current_document (session_of (self))))
        g_ptr_array_add (job->traces, g_object_ref (ws_document_get_trace (doc)));
    }
  if (job->traces->len > 0 && self->mining_page != NULL)
    {
      WsMiningForm *form = ws_mining_page_get_form (self->mining_page);
      g_autoptr(GPtrArray) chosen = ws_mining_form_dup_chosen (form);

      if (chosen->len > 0)
        {
          job->mining = ws_mining_request_new (form, chosen, session_of (self), ws_mining_page_get_rank (self->mining_page),
                                               NULL);
          ws_mining_request_set_scope (job->mining, ws_mining_scope_default ());
          /* By cause: the holder's work outranks the queue behind it. */
          ws_mining_request_set_by_cause (job->mining, TRUE);
          /* The Overview reads the history and records nothing: each trace
           * recorded itself when it opened if recording was on then, and one
           * opened while it was off stays out of the history even when the
           * setting is ticked again before this run starts. */
          ws_mining_request_set_record_history (job->mining, FALSE);
        }
    }
  if (job->traces->len == 0)
    {
      job_free (job);
      ws_worker_drop (self->worker);
      self->busy = FALSE;
      gtk_spinner_stop (self->spinner);
      gtk_label_set_text (self->causes_placeholder, _("No trace is open yet."));
      gtk_label_set_text (self->cluster_placeholder, _("No trace is open yet."));
      gtk_label_set_text (self->contrast_placeholder, _("No trace is open yet."));
      return G_SOURCE_REMOVE;
    }

  self->busy = TRUE;
  gtk_spinner_start (self->spinner);
  gtk_label_set_text (self->status_label, _("Walking back through the readiers of the slowest delays…"));
  gtk_label_set_text (self->causes_placeholder, _("Finding the causes…"));
  /* The cluster and contrast come after the causes, in the same job: till
   * then their blocks say they are coming, not the "none" of a finished
   * run (a big trace showed "No scenario instances to contrast" for
   * seconds beside a timeline full of them). */
  gtk_label_set_text (self->cluster_placeholder, _("Mining the waits that delayed other threads…"));
  gtk_label_set_text (self->contrast_placeholder, _("Contrasting the slow instances with the fast ones…"));
  ws_worker_run (self->worker, self, job, (GDestroyNotify) job_free, compute_thread, compute_done);
  return G_SOURCE_REMOVE;
}

static void
queue_recompute (WsOverviewPage *self)
{
  if (self->idle_id == 0)
    self->idle_id = g_idle_add (recompute_idle, self);
  self->busy = TRUE;
}

static void
watch_documents (WsOverviewPage *self)
{
  GListModel *docs = ws_session_get_documents (session_of (self));

  for (guint i = 0; i < g_list_model_get_n_items (docs); i++)
    {
      g_autoptr(WsDocument) doc = g_list_model_get_item (docs, i);

      if (g_hash_table_add (self->watched, doc))
        g_signal_connect_object (doc, "notify::state", G_CALLBACK (queue_recompute), self, G_CONNECT_SWAPPED);
    }
}

static void
documents_changed_cb (WsOverviewPage *self)
{
  watch_documents (self);
  queue_recompute (self);
}

/* ------------------------------------------------------------------ */
/* GObject                                                              */

static void
ws_overview_page_dispose (GObject *object)
{
  WsOverviewPage *self = WS_OVERVIEW_PAGE (object);

  if (self->worker != NULL)
    ws_worker_drop (self->worker);
  g_clear_object (&self->worker);
  g_clear_handle_id (&self->idle_id, g_source_remove);
  gtk_widget_dispose_template (GTK_WIDGET (self), WS_TYPE_OVERVIEW_PAGE);
  g_clear_object (&self->overview);
  g_clear_pointer (&self->contrast, ws_overview_contrast_free);
  g_clear_pointer (&self->cluster, ws_overview_cluster_free);
  g_clear_weak_pointer (&self->mining_page);
  g_clear_pointer (&self->watched, g_hash_table_unref);
  g_clear_object (&self->selection);
  g_clear_pointer (&self->selection_targets, g_array_unref);
  g_clear_pointer (&self->explaining, g_free);
  g_clear_pointer (&self->choice, g_free);

  G_OBJECT_CLASS (ws_overview_page_parent_class)->dispose (object);
}

/* ------------------------------------------------------------------ */
/* Its pin: the attribution, over every trace open and loaded           */

static const char * const *
pin_kinds (WsPage *page)
{
  static const char * const kinds[] = { WS_PIN_KIND_ATTRIBUTION, NULL };

  return kinds;
}

/* Nothing to say while it computes or found no cause: the window pins
 * the timeline instead. */
static WsPin *
capture_pin (WsPage     *page,
             const char *what,
             GPtrArray  *files,
             char      **message)
{
  WsOverviewPage *self = WS_OVERVIEW_PAGE (page);
  GListModel *documents = session_of (self) ? ws_session_get_documents (session_of (self)) : NULL;
  WsPin *pin;

  if (documents == NULL || self->busy || ws_overview_page_get_top_cause (self) == NULL)
    return NULL;
  for (guint i = 0; i < g_list_model_get_n_items (documents); i++)
    {
      g_autoptr(WsDocument) document = g_list_model_get_item (documents, i);

      if (ws_document_get_state (document) == WS_DOCUMENT_READY)
        g_ptr_array_add (files, g_object_ref (ws_document_get_file (document)));
    }
  if (files->len == 0)
    return NULL;
  pin = ws_pin_new (WS_PIN_KIND_ATTRIBUTION);
  ws_pin_set_title (pin, _("What the time went to"));
  return pin;
}

static void
ws_overview_page_class_init (WsOverviewPageClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  WsPageClass *page_class = WS_PAGE_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  page_class->session_changed = session_changed;
  page_class->pin_kinds = pin_kinds;
  page_class->capture_pin = capture_pin;
  ws_page_class_set_title (page_class, N_("Overview"));
  ws_page_class_set_icon_name (page_class, "view-grid-symbolic");
  object_class->dispose = ws_overview_page_dispose;

  signals[SIGNAL_SHOW_ANALYSIS] =
    g_signal_new ("show-analysis", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                  G_TYPE_NONE, 5, G_TYPE_INT, WS_TYPE_TRACE, G_TYPE_UINT, G_TYPE_INT64, G_TYPE_INT64);
  signals[SIGNAL_SHOW_MINING] =
    g_signal_new ("show-mining", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL, G_TYPE_NONE, 0);
  signals[SIGNAL_SHOW_CONTRAST] =
    g_signal_new ("show-contrast", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                  G_TYPE_NONE, 2, G_TYPE_STRING, G_TYPE_STRING);

  gtk_widget_class_set_template_from_resource (widget_class, "/io/github/waitscope/Waitscope/ws-overview-page.ui");
  gtk_widget_class_bind_template_child (widget_class, WsOverviewPage, scroller);
  gtk_widget_class_bind_template_child (widget_class, WsOverviewPage, spinner);
  gtk_widget_class_bind_template_child (widget_class, WsOverviewPage, status_label);
  gtk_widget_class_bind_template_child (widget_class, WsOverviewPage, pick_label);
  gtk_widget_class_bind_template_child (widget_class, WsOverviewPage, causes_title);
  gtk_widget_class_bind_template_child (widget_class, WsOverviewPage, causes_list);
  gtk_widget_class_bind_template_child (widget_class, WsOverviewPage, cluster_title);
  gtk_widget_class_bind_template_child (widget_class, WsOverviewPage, cluster_list);
  gtk_widget_class_bind_template_child (widget_class, WsOverviewPage, extra_box);
  gtk_widget_class_bind_template_child (widget_class, WsOverviewPage, instances_title);
  gtk_widget_class_bind_template_child (widget_class, WsOverviewPage, histogram);
  gtk_widget_class_bind_template_child (widget_class, WsOverviewPage, slowest_list);
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "overview");
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_GROUP);
}

static void
runner_clicked_cb (WsOverviewPage *self)
{
  const char *program = g_object_get_data (G_OBJECT (self->runner_button), "ws-program");

  if (program != NULL)
    ws_overview_page_explain_program (self, program);
}

static void
all_toggled_cb (WsOverviewPage *self)
{
  ws_overview_page_set_all_traces (self, gtk_check_button_get_active (self->all_check));
}

/* A boxed list below the cluster (ws_overview_page_add_section()). */
static GtkListBox *
new_section_list (WsOverviewPage *self,
                  const char     *title,
                  const char     *placeholder)
{
  GtkWidget *list = gtk_list_box_new ();

  gtk_list_box_set_selection_mode (GTK_LIST_BOX (list), GTK_SELECTION_NONE);
  gtk_widget_add_css_class (list, "boxed-list");
  gtk_accessible_update_property (GTK_ACCESSIBLE (list), GTK_ACCESSIBLE_PROPERTY_LABEL, title, -1);
  g_object_set_data (G_OBJECT (list), "ws-placeholder", ws_list_placeholder_set (GTK_LIST_BOX (list), placeholder));
  g_signal_connect_swapped (list, "row-activated", G_CALLBACK (row_activated_cb), self);
  ws_overview_page_add_section (self, title, list);
  return GTK_LIST_BOX (list);
}

static void
ws_overview_page_init (WsOverviewPage *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
  self->watched = g_hash_table_new (NULL, NULL);
  self->worker = ws_worker_new ();
  gtk_drawing_area_set_draw_func (self->histogram, draw_histogram, self, NULL);
  self->causes_placeholder = ws_list_placeholder_set (self->causes_list, _("No trace is open yet."));
  ws_list_placeholder_set (self->slowest_list, _("No scenario instances."));
  self->cluster_placeholder = ws_list_placeholder_set (self->cluster_list, _("No trace is open yet."));
  g_signal_connect_swapped (self->causes_list, "row-activated", G_CALLBACK (row_activated_cb), self);
  g_signal_connect_swapped (self->slowest_list, "row-activated", G_CALLBACK (row_activated_cb), self);
  g_signal_connect_swapped (self->cluster_list, "row-activated", G_CALLBACK (row_activated_cb), self);

  {
    GtkWidget *box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
    GtkWidget *parent = gtk_widget_get_parent (GTK_WIDGET (self->status_label));

    self->explaining_label = GTK_LABEL (gtk_label_new (NULL));
    gtk_label_set_xalign (self->explaining_label, 0);
    gtk_label_set_wrap (self->explaining_label, TRUE);
    gtk_widget_set_hexpand (GTK_WIDGET (self->explaining_label), TRUE);
    gtk_widget_add_css_class (GTK_WIDGET (self->explaining_label), "dim-label");
    self->back_button = GTK_BUTTON (gtk_button_new_with_label (_("Back to the automatic choice")));
    self->runner_button = GTK_BUTTON (gtk_button_new_with_label (""));
    self->all_check = GTK_CHECK_BUTTON (gtk_check_button_new_with_label (_("All open traces")));
    gtk_widget_set_visible (GTK_WIDGET (self->back_button), FALSE);
    gtk_widget_set_visible (GTK_WIDGET (self->runner_button), FALSE);
    gtk_widget_set_visible (GTK_WIDGET (self->all_check), FALSE);
    gtk_box_append (GTK_BOX (box), GTK_WIDGET (self->explaining_label));
    gtk_box_append (GTK_BOX (box), GTK_WIDGET (self->all_check));
    gtk_box_append (GTK_BOX (box), GTK_WIDGET (self->runner_button));
    gtk_box_append (GTK_BOX (box), GTK_WIDGET (self->back_button));
    gtk_box_insert_child_after (GTK_BOX (parent), box, gtk_widget_get_prev_sibling (GTK_WIDGET (self->status_label)));
    g_signal_connect_swapped (self->back_button, "clicked", G_CALLBACK (ws_overview_page_explain_automatic), self);
    g_signal_connect_swapped (self->runner_button, "clicked", G_CALLBACK (runner_clicked_cb), self);
    g_signal_connect_swapped (self->all_check, "toggled", G_CALLBACK (all_toggled_cb), self);
  }
  self->contrast_list = new_section_list (self, _("Top contrast pattern between the slow and fast instances"),
                                          _("No trace is open yet."));
  self->contrast_placeholder = g_object_get_data (G_OBJECT (self->contrast_list), "ws-placeholder");
  self->anomaly_list = new_section_list (self, _("Anomalous waits"),
                                         _("No anomalous wait (or the wait models are still being fitted)."));
}

GtkWidget *
ws_overview_page_new (void)
{
  return g_object_new (WS_TYPE_OVERVIEW_PAGE, NULL);
}

static void
clear_selection (WsOverviewPage *self)
{
  g_clear_object (&self->selection);
  g_clear_pointer (&self->selection_targets, g_array_unref);
  g_clear_pointer (&self->explaining, g_free);
}

static void
current_changed_cb (WsOverviewPage *self)
{
  clear_selection (self);
  g_clear_pointer (&self->choice, g_free);
  if (!self->all_traces)
    queue_recompute (self);
  else if (self->overview != NULL)
    fill (self);
}

void
ws_overview_page_set_all_traces (WsOverviewPage *self,
                                 gboolean        all)
{
  g_return_if_fail (WS_IS_OVERVIEW_PAGE (self));

  if (self->all_traces == all)
    return;
  self->all_traces = all;
  if (gtk_check_button_get_active (self->all_check) != all)
    gtk_check_button_set_active (self->all_check, all);
  clear_selection (self);
  queue_recompute (self);
}

void
ws_overview_page_explain_program (WsOverviewPage *self,
                                  const char     *program)
{
  g_return_if_fail (WS_IS_OVERVIEW_PAGE (self));

  clear_selection (self);
  g_free (self->choice);
  self->choice = g_strdup (program);
  queue_recompute (self);
}

void
ws_overview_page_explain_automatic (WsOverviewPage *self)
{
  g_return_if_fail (WS_IS_OVERVIEW_PAGE (self));

  clear_selection (self);
  g_clear_pointer (&self->choice, g_free);
  queue_recompute (self);
}

gboolean
ws_overview_page_explain_selection (WsOverviewPage *self,
                                    WsTrace        *trace,
                                    guint           thread,
                                    WsTime          t0,
                                    WsTime          t1,
                                    guint           event)
{
  g_autoptr(GArray) targets = g_array_new (FALSE, FALSE, sizeof (WsAttributionTarget));
  g_autoptr(WsAttribution) attr = NULL;
  WsAttributionTarget target = { trace, { thread, t0, t1 }, WS_NONE };
  const WsThread *th;
  g_autofree char *len = NULL;

  g_return_val_if_fail (WS_IS_OVERVIEW_PAGE (self), FALSE);
  g_return_val_if_fail (WS_IS_TRACE (trace), FALSE);

  if (thread >= ws_trace_get_n_threads (trace) || t1 <= t0)
    return FALSE;
  th = ws_trace_get_thread (trace, thread);
  /* a wait is explained as `why --event` does; a scenario instance whose
   * window this is, as `why --scenario-instance` */
  if (event != WS_NONE && ws_symptom_from_wait (trace, event, &target.symptom))
    t0 = target.symptom.t0, t1 = target.symptom.t1;
  for (guint i = 0; i < ws_trace_get_n_scenario_instances (trace); i++)
    {
      const WsScenarioInstance *inst = ws_trace_get_scenario_instance (trace, i);
      if (inst->thread == target.symptom.thread && inst->t0 == target.symptom.t0 && inst->t1 == target.symptom.t1)
        target.instance = i;
    }
  if (self->selection_targets != NULL && self->selection_targets->len == 1)
    {
      const WsAttributionTarget *shown = &g_array_index (self->selection_targets, WsAttributionTarget, 0);
      if (shown->trace == trace && shown->symptom.thread == target.symptom.thread &&
          shown->symptom.t0 == target.symptom.t0 && shown->symptom.t1 == target.symptom.t1)
        return TRUE;   /* already explained */
    }
  g_array_append_val (targets, target);
  /* one thread window: the same core call as `why --tid/--from/--to`,
   * quick enough for the main thread */
  if ((attr = ws_attribution_compute (targets, NULL, NULL)) == NULL)
    return FALSE;
  clear_selection (self);
  len = ws_format_duration (t1 - t0);
  if (target.instance != WS_NONE)
    self->explaining = g_strdup_printf (_("scenario instance %u (%s %d, %s)"), target.instance,
                                        th->name ? th->name : "?", th->tid, len);
  else if (event != WS_NONE)
    self->explaining = g_strdup_printf (_("the wait of %s %d (%s)"), th->name ? th->name : "?", th->tid, len);
  else
    {
      g_autofree char *from = ws_format_duration (t0 - ws_trace_get_start_time (trace));
      self->explaining = g_strdup_printf (_("the selected window of %s %d (%s from +%s)"),
                                          th->name ? th->name : "?", th->tid, len, from);
    }
  self->selection = g_steal_pointer (&attr);
  self->selection_targets = g_steal_pointer (&targets);
  if (self->overview != NULL)
    fill (self);
  return TRUE;
}

const char *
ws_overview_page_get_explaining (WsOverviewPage *self)
{
  g_return_val_if_fail (WS_IS_OVERVIEW_PAGE (self), NULL);
  return gtk_widget_get_visible (GTK_WIDGET (self->explaining_label)) ? gtk_label_get_text (self->explaining_label) : NULL;
}

WsAttribution *
ws_overview_page_get_attribution (WsOverviewPage *self)
{
  g_return_val_if_fail (WS_IS_OVERVIEW_PAGE (self), NULL);
  return self->overview != NULL ? shown_attribution (self) : NULL;
}

GtkButton *
ws_overview_page_get_runner_up_button (WsOverviewPage *self)
{
  g_return_val_if_fail (WS_IS_OVERVIEW_PAGE (self), NULL);
  return self->runner_button;
}

static void
session_changed (WsPage    *page,
                 WsSession *old_session,
                 WsSession *session)
{
  WsOverviewPage *self = WS_OVERVIEW_PAGE (page);

  g_return_if_fail (WS_IS_OVERVIEW_PAGE (self));
  g_return_if_fail (session == NULL || WS_IS_SESSION (session));

  if (old_session != NULL)
    {
      g_signal_handlers_disconnect_by_data (ws_session_get_documents (old_session), self);
      g_signal_handlers_disconnect_by_data (ws_session_get_anomaly_state (old_session), self);
    }
  if (session == NULL)
    return;
  g_signal_connect_object (ws_session_get_documents (session), "items-changed",
                           G_CALLBACK (documents_changed_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (ws_session_get_anomaly_state (session), "changed",
                           G_CALLBACK (fill_anomalies), self, G_CONNECT_SWAPPED);
  /* the Overview explains the selected trace: another one selected,
   * another answer (unless every trace is explained together) */
  g_signal_connect_object (session, "notify::current-document",
                           G_CALLBACK (current_changed_cb), self, G_CONNECT_SWAPPED);
  documents_changed_cb (self);
}

/**
 * ws_overview_page_set_mining_page:
 * @mining_page: (nullable): the page whose settings (and ticked traces)
 *   the top cluster is mined with, at the default scope; %NULL for the
 *   core's defaults
 *
 * So that the cluster row names the cluster the Mining page lists first
 * when the row is clicked.
 */
void
ws_overview_page_set_mining_page (WsOverviewPage *self,
                                  WsMiningPage   *mining_page)
{
  g_return_if_fail (WS_IS_OVERVIEW_PAGE (self));
  g_return_if_fail (mining_page == NULL || WS_IS_MINING_PAGE (mining_page));

  g_set_weak_pointer (&self->mining_page, mining_page);
  if (session_of (self) != NULL)
    queue_recompute (self);
}

gboolean
ws_overview_page_get_busy (WsOverviewPage *self)
{
  g_return_val_if_fail (WS_IS_OVERVIEW_PAGE (self), FALSE);
  return self->busy;
}

const char *
ws_overview_page_get_top_cause (WsOverviewPage *self)
{
  WsAttribution *attr;

  g_return_val_if_fail (WS_IS_OVERVIEW_PAGE (self), NULL);
  if (self->overview == NULL)
    return NULL;
  attr = shown_attribution (self);
  return ws_attribution_get_n_causes (attr) > 0 ? ws_attribution_get_cause (attr, 0)->label : NULL;
}

GtkListBox *
ws_overview_page_get_causes_list (WsOverviewPage *self)
{
  g_return_val_if_fail (WS_IS_OVERVIEW_PAGE (self), NULL);
  return self->causes_list;
}

GtkListBox *
ws_overview_page_get_slowest_list (WsOverviewPage *self)
{
  g_return_val_if_fail (WS_IS_OVERVIEW_PAGE (self), NULL);
  return self->slowest_list;
}

GtkListBox *
ws_overview_page_get_contrast_list (WsOverviewPage *self)
{
  g_return_val_if_fail (WS_IS_OVERVIEW_PAGE (self), NULL);
  return self->contrast_list;
}

GtkListBox *
ws_overview_page_get_anomaly_list (WsOverviewPage *self)
{
  g_return_val_if_fail (WS_IS_OVERVIEW_PAGE (self), NULL);
  return self->anomaly_list;
}

const char *
ws_overview_page_get_pick_reason (WsOverviewPage *self)
{
  g_return_val_if_fail (WS_IS_OVERVIEW_PAGE (self), NULL);
  return self->overview != NULL ? ws_overview_get_pick_reason (self->overview) : NULL;
}

const WsOverviewCluster *
ws_overview_page_get_cluster (WsOverviewPage *self)
{
  g_return_val_if_fail (WS_IS_OVERVIEW_PAGE (self), NULL);
  return self->cluster;
}

GtkListBox *
ws_overview_page_get_cluster_list (WsOverviewPage *self)
{
  g_return_val_if_fail (WS_IS_OVERVIEW_PAGE (self), NULL);
  return self->cluster_list;
}

void
ws_overview_page_add_section (WsOverviewPage *self,
                              const char     *title,
                              GtkWidget      *child)
{
  GtkWidget *label;

  g_return_if_fail (WS_IS_OVERVIEW_PAGE (self));
  g_return_if_fail (GTK_IS_WIDGET (child));

  label = gtk_label_new (title);
  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_label_set_wrap (GTK_LABEL (label), TRUE);
  gtk_widget_set_margin_top (label, 6);
  gtk_widget_add_css_class (label, "heading");
  gtk_box_append (self->extra_box, label);
  gtk_box_append (self->extra_box, child);
}
