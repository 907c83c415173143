/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The Mining panel.  A run snapshots the settings and the chosen traces
 * (immutable once loaded, so a worker may read them), then in one worker
 * thread: extracts the area of interest into a stack database, mines the
 * costly maximal patterns, fills the similarity model from the history
 * store (falling back to the mined stacks' own counts), and clusters.
 * The worker's progress reports are coalesced into one idle callback; a
 * generation counter drops the result of a run that a newer one (or
 * Cancel) superseded.
 *
 * Everything shown afterwards (the table, alignments, events of a pattern)
 * is derived on demand from the run's result, on the main thread except
 * the event scan, which walks whole traces and so runs in a worker too.
 */
#include "config.h"

#include <adwaita.h>
#include <glib/gi18n.h>
#include <string.h>

#include "ws-aoi.h"
#include "ws-coverage.h"
#include "ws-error.h"
#include "ws-export-dialog.h"
#include <math.h>
#include "ws-history-store.h"
#include "ws-miner.h"
#include "ws-mining-item.h"
#include "ws-mining-page.h"
#include "ws-progress-relay.h"
#include "ws-similarity.h"
#include "ws-stack-db.h"
#include "ws-time-format.h"

/* Columns of the alignment view: more is unreadable; the table has all. */
#define MAX_ALIGNED_PATTERNS 24
/* Frames named in a table row's label. */
#define LABEL_FRAMES 3
/* The exported coverage chart, in points (pixels for PNG). */
#define COVERAGE_EXPORT_WIDTH  960
#define COVERAGE_EXPORT_HEIGHT 540

/* ------------------------------------------------------------------ */
/* A run's result                                                       */

typedef struct {
  grefcount      ref_count;
  GPtrArray     *documents;    /* WsDocument, one per stream */
  GPtrArray     *traces;       /* WsTrace, one per stream */
  WsStackDb     *db;
  WsPatternSet  *patterns;
  WsClusterSet  *clusters;
  WsSimilarity  *similarity;
  gint64         lambda;
  gboolean       history_used;
  gint64         elapsed_us;
} Result;

static Result *
result_ref (Result *r)
{
  g_ref_count_inc (&r->ref_count);
  return r;
}

static void
result_unref (Result *r)
{
  if (!g_ref_count_dec (&r->ref_count))
    return;
  g_ptr_array_unref (r->documents);
  g_ptr_array_unref (r->traces);
  g_clear_object (&r->db);
  g_clear_pointer (&r->patterns, ws_pattern_set_unref);
  g_clear_pointer (&r->clusters, ws_cluster_set_unref);
  g_clear_object (&r->similarity);
  g_free (r);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (Result, result_unref)

/* ------------------------------------------------------------------ */
/* The page                                                             */

struct _WsMiningPage
{
  GtkWidget            parent_instance;

  /* Template widgets */
  GtkPaned            *outer_paned;
  GtkWidget           *settings_box;
  GtkToggleButton     *settings_button;
  GtkListBox          *trace_list;
  AdwComboRow         *scope_row;
  GtkSwitch           *critical_switch;
  AdwEntryRow         *threads_row;
  AdwComboRow         *kind_row;
  AdwEntryRow         *include_row;
  AdwEntryRow         *exclude_row;
  GtkSpinButton       *lambda_spin;
  AdwExpanderRow      *guideline_row;
  GtkSpinButton       *share_spin;
  GtkSpinButton       *delay_spin;
  AdwActionRow        *guideline_result_row;
  GtkSpinButton       *threshold_spin;
  GtkStack            *results_stack;
  AdwStatusPage       *running_page;
  AdwStatusPage       *error_page;
  GtkProgressBar      *progress_bar;
  GtkPaned            *inner_paned;
  GtkLabel            *summary_label;
  GtkDropDown         *rank_dropdown;
  GtkColumnView       *cluster_view;
  GtkLabel            *detail_label;
  GtkStack            *detail_stack;
  WsAlignmentView     *alignment_view;
  WsCoverageView      *coverage_view;
  GtkListBox          *signature_list;
  GtkGrid             *coverage_table;

  /* Owned references */
  WsSession           *session;          /* open traces, settings, history store */
  GListModel          *documents;        /* the session's */
  GHashTable          *unchecked;        /* WsDocument* the user left out */
  GSettings           *settings;         /* the session's; NULL without the schema */
  GCancellable        *cancellable;
  GCancellable        *events_cancellable;
  Result              *result;
  GListStore          *roots;
  GtkSingleSelection  *selection;
  WsAlignmentGrid     *grid;
  guint               *grid_patterns;    /* pattern index of each grid column */
  char                *status;

  /* The run in progress */
  guint                generation;
  gboolean             busy;
  WsProgressRelay     *progress_relay;

  guint                shown_cluster;    /* cluster index in the alignment */

  /* Signatures, kept across runs, and their coverage in the last one */
  GPtrArray           *signatures;       /* Signature */
  WsCoverage          *coverage;
  GArray              *signature_index;  /* guint per signature: index in coverage, or G_MAXUINT */
  GHashTable          *signed_patterns;  /* costliest pattern (+1) of clusters given a signature */
  struct _Curves      *curves;           /* of coverage, once computed; NULL meanwhile */
  GCancellable        *coverage_cancellable;
  guint                coverage_generation;
  GtkWidget           *coverage_busy;    /* "Computing…" over the chart */
};

G_DEFINE_FINAL_TYPE (WsMiningPage, ws_mining_page, GTK_TYPE_WIDGET)

enum {
  PROP_0,
  PROP_BUSY,
  PROP_STATUS,
  PROP_COVERAGE_BUSY,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

enum {
  SHOW_EVENTS,
  FINISHED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

static void update_guideline (WsMiningPage *self);
static void update_actions (WsMiningPage *self);
static void rebuild_coverage (WsMiningPage *self);

static void
set_status (WsMiningPage *self,
            const char   *status)
{
  if (g_strcmp0 (status, self->status) == 0)
    return;
  g_free (self->status);
  self->status = g_strdup (status);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_STATUS]);
}

static void
toast (WsMiningPage *self,
       const char   *text)
{
  GtkWidget *overlay = gtk_widget_get_ancestor (GTK_WIDGET (self), ADW_TYPE_TOAST_OVERLAY);

  set_status (self, text);
  if (overlay != NULL)
    adw_toast_overlay_add_toast (ADW_TOAST_OVERLAY (overlay), adw_toast_new (text));
}

/* ------------------------------------------------------------------ */
/* Labels                                                               */

static gboolean
is_kernel_module (const char *module)
{
  return module == NULL || module[0] == '[' || g_str_has_suffix (module, ".ko");
}

typedef struct {
  guint  position;
  double score;
} Telling;

static int
compare_telling (gconstpointer a,
                 gconstpointer b)
{
  const Telling *x = a, *y = b;

  if (x->score != y->score)
    return x->score > y->score ? -1 : 1;
  return x->position > y->position ? -1 : x->position < y->position;
}

/* A pattern in a table row: its few most telling frames, in call order.
 * "Telling" is StackMine's unigram weight Uni(f) (how unlikely f is a
 * common-purpose function: the scheduler's functions are in most waiting
 * stacks, XactLockTableWait in few); nearer the leaf breaks ties.  Without
 * statistics, frames outside the kernel count as telling.  The whole
 * pattern goes in the tooltip. */
static char *
pattern_label (WsStackTable    *table,
               WsSimilarity    *similarity,
               const WsPattern *p)
{
  g_autofree Telling *t = g_new (Telling, MAX (p->n_frames, 1));
  guint n = 0, shown;
  GString *s = g_string_new (NULL);

  for (guint i = 0; i < p->n_frames; i++)
    {
      const WsFrame *f = ws_stack_table_get_frame (table, p->frames[i]);

      if (f == NULL)
        continue;
      t[n].position = i;
      /* Unsymbolised frames only when there is nothing else to show. */
      if (f->function == NULL || g_str_equal (f->function, "[unknown]"))
        t[n].score = -1;
      else
        t[n].score = similarity ? ws_similarity_uni (similarity, p->frames[i])
                                : !is_kernel_module (f->module);
      n++;
    }
  if (n == 0)
    {
      g_string_append (s, "?");
      return g_string_free (s, FALSE);
    }
  qsort (t, n, sizeof (Telling), compare_telling);
  /* Named frames sort first; unsymbolised ones only if there is no other. */
  shown = 0;
  while (shown < n && shown < LABEL_FRAMES && (t[shown].score >= 0 || t[0].score < 0))
    shown++;
  /* Back to call order. */
  for (guint i = 0; i < shown; i++)
    for (guint j = i + 1; j < shown; j++)
      if (t[j].position < t[i].position)
        {
          Telling tmp = t[i];
          t[i] = t[j];
          t[j] = tmp;
        }
  for (guint i = 0; i < shown; i++)
    {
      const WsFrame *f = ws_stack_table_get_frame (table, p->frames[t[i].position]);
      const char *module = f->module ? strrchr (f->module, '/') : NULL;

      if (i > 0)
        g_string_append (s, t[i].position > t[i - 1].position + 1 ? " … " : " › ");
      if (f->function != NULL && !g_str_equal (f->function, "[unknown]"))
        g_string_append (s, f->function);
      else
        /* Translators: an unsymbolised frame, with its module */
        {
          if (f->module == NULL || f->module[0] == '[')
            g_string_append (s, "?");
          else
            g_string_append_printf (s, _("? in %s"), module ? module + 1 : f->module);
        }
    }
  return g_string_free (s, FALSE);
}

static char *
pattern_tooltip (WsStackTable    *table,
                 const WsPattern *p)
{
  GString *s = g_string_new (NULL);

  for (guint i = 0; i < p->n_frames; i++)
    {
      const WsFrame *f = ws_stack_table_get_frame (table, p->frames[i]);
      if (i > 0)
        g_string_append_c (s, '\n');
      g_string_append_printf (s, "%*s%s", (int) MIN (i, 12), "", f && f->function ? f->function : "?");
    }
  return g_string_free (s, FALSE);
}

static char *
format_cost (double ns)
{
  return ws_format_duration ((WsTime) (ns + 0.5));
}

/* ------------------------------------------------------------------ */
/* Traces to mine                                                       */

static gboolean
document_ready (WsDocument *document)
{
  return ws_document_get_state (document) == WS_DOCUMENT_READY;
}

static GPtrArray *
chosen_documents (WsMiningPage *self)
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
                  WsMiningPage   *self)
{
  WsDocument *document = g_object_get_data (G_OBJECT (check), "document");

  if (gtk_check_button_get_active (check))
    g_hash_table_remove (self->unchecked, document);
  else
    g_hash_table_add (self->unchecked, document);
  update_guideline (self);
  update_actions (self);
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
  WsMiningPage *self = g_object_get_data (G_OBJECT (row), "page");

  update_trace_row (row);
  update_guideline (self);
  update_actions (self);
}

static GtkWidget *
create_trace_row (gpointer item,
                  gpointer user_data)
{
  WsMiningPage *self = user_data;
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
  g_object_set_data (G_OBJECT (row), "page", self);
  g_signal_connect_object (document, "notify::state", G_CALLBACK (document_changed_cb), row, G_CONNECT_SWAPPED);
  g_signal_connect_object (document, "notify::subtitle", G_CALLBACK (document_changed_cb), row, G_CONNECT_SWAPPED);
  g_signal_connect_object (document, "notify::title", G_CALLBACK (document_changed_cb), row, G_CONNECT_SWAPPED);
  update_trace_row (ADW_ACTION_ROW (row));
  return row;
}

/* ------------------------------------------------------------------ */
/* λ and its guideline                                                  */

static gint64
guideline_lambda (WsMiningPage *self,
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
update_guideline (WsMiningPage *self)
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
  WsMiningPage *self = WS_MINING_PAGE (widget);
  ws_mining_page_set_lambda (self, guideline_lambda (self, NULL));
}

/* ------------------------------------------------------------------ */
/* Progress                                                             */

/* On the main thread, the latest of the worker's reports, coalesced by
 * the relay into one idle. */
static void
progress_published (double      fraction,
                    const char *message,
                    gpointer    user_data)
{
  WsMiningPage *self = user_data;

  if (!self->busy || self->progress_bar == NULL)
    return;
  if (fraction >= 0)
    gtk_progress_bar_set_fraction (self->progress_bar, CLAMP (fraction, 0, 1));
  else
    gtk_progress_bar_pulse (self->progress_bar);
  if (message != NULL)
    {
      gtk_progress_bar_set_text (self->progress_bar, message);
      set_status (self, message);
    }
}

typedef struct {
  WsMiningPage *page;
  double        base;
  double        scale;
} Stage;

/* From the worker: the relay keeps the latest report, one idle publishes it. */
static void
report (WsMiningPage *self,
        double        fraction,
        const char   *message)
{
  ws_progress_relay_report (fraction, message, self->progress_relay);
}

static void
stage_progress_cb (double      fraction,
                   const char *message,
                   gpointer    user_data)
{
  Stage *stage = user_data;
  report (stage->page, fraction < 0 ? -1 : stage->base + CLAMP (fraction, 0, 1) * stage->scale, message);
}

/* ------------------------------------------------------------------ */
/* The worker                                                           */

typedef struct {
  WsMiningPage *page;          /* a reference: progress goes there */
  GPtrArray    *documents;
  GPtrArray    *traces;
  gboolean      running;       /* running stacks, else waiting stacks */
  char         *include;
  char         *exclude;
  char         *threads;
  gboolean      critical_path;
  guint         scope;
  gint64        lambda;
  double        threshold;
  WsClusterRank rank;
  char         *history_path;
  gboolean      record_history;       /* the "record-history" setting */
  guint         generation;
  WsDocument   *selection_document;   /* SCOPE_SELECTION_GRAPH: where, or NULL */
  WsSymptom     selection;
} Job;

static void
job_free (Job *job)
{
  g_object_unref (job->page);
  g_ptr_array_unref (job->documents);
  g_ptr_array_unref (job->traces);
  g_free (job->include);
  g_free (job->exclude);
  g_free (job->threads);
  g_free (job->history_path);
  g_free (job);
}

/* The scopes offered, in the combo row's order. */
typedef WsMiningScope Scope;
#define SCOPE_WHOLE           WS_MINING_SCOPE_WHOLE_TRACES
#define SCOPE_INSTANCES       WS_MINING_SCOPE_INSTANCES
#define SCOPE_INSTANCE_GRAPHS WS_MINING_SCOPE_INSTANCE_GRAPHS
#define SCOPE_SELECTION_GRAPH WS_MINING_SCOPE_SELECTION_GRAPH

static gboolean
scope_has_graph (Scope scope)
{
  return scope == SCOPE_INSTANCE_GRAPHS || scope == SCOPE_SELECTION_GRAPH;
}

/* The events of the threads whose name matches, or NULL for all. */
static WsEventSet *
thread_scope (WsTrace *trace,
              GRegex  *threads)
{
  g_autoptr(GArray) tids = g_array_new (FALSE, FALSE, sizeof (gint32));

  if (threads == NULL)
    return NULL;
  for (guint t = 0; t < ws_trace_get_n_threads (trace); t++)
    {
      const WsThread *th = ws_trace_get_thread (trace, t);
      if (th->name != NULL && g_regex_match (threads, th->name, 0, NULL))
        g_array_append_val (tids, th->tid);
    }
  return ws_aoi_scope_threads (trace, (const gint32 *) tids->data, tids->len);
}

/* @scope ∩ @threads, into @scope (NULL @scope: all events). */
static WsEventSet *
restrict_scope (WsEventSet       *scope,
                const WsEventSet *threads)
{
  WsEventSet *out;
  guint n;

  if (threads == NULL)
    return scope;
  n = ws_event_set_get_n_events (threads);
  out = ws_event_set_new (n);
  for (guint i = 0; i < n; i++)
    if (ws_event_set_contains (threads, i) && (scope == NULL || ws_event_set_contains (scope, i)))
      ws_event_set_add (out, i);
  if (scope != NULL)
    ws_event_set_free (scope);
  return out;
}

static gboolean
extract_trace (Job           *job,
               WsAoi         *aoi,
               GRegex        *threads,
               guint          index,
               WsStackDb     *db,
               GCancellable  *cancellable,
               GError       **error)
{
  WsTrace *trace = g_ptr_array_index (job->traces, index);
  g_autoptr(WsEventSet) only = thread_scope (trace, threads);
  g_autoptr(WsFrameClassifier) classifier = NULL;
  double base = 0.2 * index / job->traces->len, share = 0.2 / job->traces->len;
  guint n_instances = ws_trace_get_n_scenario_instances (trace);

  switch ((Scope) job->scope)
    {
    case SCOPE_WHOLE:
    default:
      {
        g_autoptr(WsEventSet) scope = restrict_scope (NULL, only);
        ws_aoi_extract (aoi, trace, scope, db, ws_stack_db_add_stream (db, ws_trace_get_name (trace)));
      }
      return TRUE;

    case SCOPE_SELECTION_GRAPH:
      {
        g_autoptr(WsEventSet) scope = NULL;

        /* Only the trace the selection was made in. */
        if (job->documents->pdata[index] != job->selection_document)
          return TRUE;
        scope = ws_aoi_scope_symptom_graph (trace, &job->selection, job->critical_path, NULL, cancellable, error);
        if (scope == NULL)
          return FALSE;
        scope = restrict_scope (g_steal_pointer (&scope), only);
        ws_aoi_extract (aoi, trace, scope, db, ws_stack_db_add_stream (db, ws_trace_get_name (trace)));
      }
      return TRUE;

    case SCOPE_INSTANCES:
    case SCOPE_INSTANCE_GRAPHS:
      classifier = ws_frame_classifier_new ();
      for (guint i = 0; i < n_instances; i++)
        {
          const WsScenarioInstance *inst = ws_trace_get_scenario_instance (trace, i);
          g_autoptr(WsEventSet) scope = NULL;
          g_autofree char *name = NULL;
          WsSymptom symptom;
          guint stream;

          if (g_cancellable_set_error_if_cancelled (cancellable, error))
            return FALSE;
          ws_symptom_from_scenario_instance (trace, i, &symptom);
          if (job->scope == SCOPE_INSTANCES)
            scope = ws_aoi_scope_window (trace, inst->thread, inst->t0, inst->t1);
          else if ((scope = ws_aoi_scope_symptom_graph (trace, &symptom, job->critical_path, classifier,
                                                        cancellable, error)) == NULL)
            return FALSE;
          scope = restrict_scope (g_steal_pointer (&scope), only);

          /* Each instance is a symptom, its own stream: its delay is its
           * duration (StackMine's response delay). */
          name = g_strdup_printf ("%s %s #%u", ws_trace_get_name (trace),
                                  ws_trace_get_string (trace, inst->scenario), i + 1);
          stream = ws_stack_db_add_stream (db, name);
          ws_stack_db_set_stream_delay (db, stream, inst->t1 - inst->t0, inst->t1 - inst->t0);
          ws_aoi_extract (aoi, trace, scope, db, stream);
          if ((i & 15) == 0)
            report (job->page, base + share * i / n_instances, NULL);
        }
      return TRUE;
    }
}

/* The area of interest of every chosen trace (StackMine §IV): the scope's
 * events, then the content filters, into one stack database. */
static WsStackDb *
extract_aoi (Job           *job,
             GCancellable  *cancellable,
             GError       **error)
{
  g_autoptr(WsStackTable) table = ws_stack_table_new ();
  g_autoptr(WsStackDb) db = ws_stack_db_new (table);
  g_autoptr(WsAoi) aoi = ws_aoi_new (job->running ? WS_AOI_RUNNING : WS_AOI_WAITING);
  g_autoptr(GRegex) threads = NULL;

  if (job->include && *job->include && !ws_aoi_add_must (aoi, job->include, error))
    {
      /* Translators: prefix of a regular-expression error, names the filter */
      g_prefix_error (error, _("Must contain a frame matching: "));
      return NULL;
    }
  if (job->exclude && *job->exclude && !ws_aoi_add_must_not (aoi, job->exclude, error))
    {
      g_prefix_error (error, _("Must not contain a frame matching: "));
      return NULL;
    }
  if (job->threads && *job->threads)
    {
      g_autoptr(GError) local = NULL;

      threads = g_regex_new (job->threads, G_REGEX_CASELESS | G_REGEX_OPTIMIZE, 0, &local);
      if (threads == NULL)
        {
          g_set_error (error, WS_ERROR, WS_ERROR_INVALID, _("Invalid thread expression “%s”: %s"),
                       job->threads, local->message);
          return NULL;
        }
    }
  if (job->scope == SCOPE_SELECTION_GRAPH && job->selection_document == NULL)
    {
      g_set_error_literal (error, WS_ERROR, WS_ERROR_INVALID,
                           _("Select a window of a thread in the timeline first: its wait graph is the scope"));
      return NULL;
    }

  for (guint s = 0; s < job->traces->len; s++)
    {
      if (!extract_trace (job, aoi, threads, s, db, cancellable, error))
        return NULL;
      report (job->page, 0.2 * (s + 1) / job->traces->len, NULL);
    }
  if (g_cancellable_set_error_if_cancelled (cancellable, error))
    return NULL;
  return g_steal_pointer (&db);
}

/* Function weights from every trace ever imported (the history store),
 * as StackMine §VI.C asks; without a store, from the mined stacks.  With
 * the "record-history" setting off the mined traces are not added to the
 * store, which is then only read, and not even created when missing. */
static WsSimilarity *
make_similarity (Job          *job,
                 WsStackDb    *db,
                 WsPatternSet *patterns,
                 gboolean     *history_used)
{
  WsStackTable *table = ws_stack_db_get_stack_table (db);
  g_autoptr(WsSimilarity) similarity = ws_similarity_new (table);
  g_autoptr(WsHistoryStore) store = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *path = job->history_path ? g_strdup (job->history_path) : ws_history_store_default_path ();

  *history_used = FALSE;
  if (job->record_history || g_file_test (path, G_FILE_TEST_IS_REGULAR))
    store = ws_history_store_open (path, &error);
  else
    g_set_error (&error, WS_ERROR, WS_ERROR_IO, "%s", _("history recording is off and there is no store yet"));
  if (store != NULL)
    {
      g_autoptr(GHashTable) seen = g_hash_table_new (NULL, NULL);
      g_autoptr(GArray) frames = g_array_new (FALSE, FALSE, sizeof (WsFrameId));

      for (guint i = 0; job->record_history && i < job->traces->len && error == NULL; i++)
        ws_history_store_record_trace (store, g_ptr_array_index (job->traces, i), NULL, &error);
      for (guint p = 0; p < ws_pattern_set_get_n_patterns (patterns); p++)
        {
          const WsPattern *pat = ws_pattern_set_get_pattern (patterns, p);
          for (guint k = 0; k < pat->n_frames; k++)
            if (g_hash_table_add (seen, GUINT_TO_POINTER (pat->frames[k] + 1)))
              g_array_append_val (frames, pat->frames[k]);
        }
      if (error == NULL &&
          ws_history_store_fill_similarity (store, similarity, (const WsFrameId *) frames->data, frames->len, &error))
        *history_used = TRUE;
    }
  if (!*history_used)
    {
      g_message ("Mining: history store %s not used (%s); counting the mined stacks instead",
                 path, error ? error->message : "?");
      for (guint e = 0; e < ws_stack_db_get_n_entries (db); e++)
        {
          guint nf;
          const WsFrameId *frames = ws_stack_db_get_frames (db, e, &nf);
          ws_similarity_count_stack (similarity, frames, nf, ws_stack_db_get_entry (db, e)->n_events);
        }
    }
  return g_steal_pointer (&similarity);
}

static void
mine_thread (GTask        *task,
             gpointer      source_object,
             gpointer      task_data,
             GCancellable *cancellable)
{
  Job *job = task_data;
  g_autoptr(Result) result = g_new0 (Result, 1);
  g_autoptr(GError) error = NULL;
  gint64 start = g_get_monotonic_time ();
  Stage stage = { job->page, 0, 0 };

  g_ref_count_init (&result->ref_count);
  result->documents = g_ptr_array_ref (job->documents);
  result->traces = g_ptr_array_ref (job->traces);
  result->lambda = job->lambda;

  report (job->page, 0, _("Extracting the areas of interest…"));
  result->db = extract_aoi (job, cancellable, &error);
  if (result->db == NULL)
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }

  stage.base = 0.2;
  stage.scale = 0.5;
  report (job->page, 0.2, _("Mining costly patterns…"));
  result->patterns = ws_miner_mine (result->db, job->lambda, cancellable, stage_progress_cb, &stage, &error);
  if (result->patterns == NULL)
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }

  report (job->page, 0.7, _("Reading function statistics…"));
  result->similarity = make_similarity (job, result->db, result->patterns, &result->history_used);
  if (g_task_return_error_if_cancelled (task))
    return;

  stage.base = 0.72;
  stage.scale = 0.28;
  report (job->page, 0.72, _("Clustering patterns…"));
  result->clusters = ws_clusterer_cluster (result->patterns, result->similarity, job->threshold,
                                           WS_LINKAGE_AVERAGE, cancellable, stage_progress_cb, &stage, &error);
  if (result->clusters == NULL)
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }
  ws_cluster_set_rank (result->clusters, job->rank);
  result->elapsed_us = g_get_monotonic_time () - start;
  g_task_return_pointer (task, g_steal_pointer (&result), (GDestroyNotify) result_unref);
}

/* ------------------------------------------------------------------ */
/* The table                                                            */

static WsMiningItem *
pattern_item (Result *r,
              guint   pattern,
              guint   rank)
{
  const WsPattern *p = ws_pattern_set_get_pattern (r->patterns, pattern);
  WsStackTable *table = ws_stack_db_get_stack_table (r->db);
  g_autofree char *label = pattern_label (table, r->similarity, p);
  g_autofree char *tooltip = pattern_tooltip (table, p);

  return ws_mining_item_new (WS_MINING_ITEM_PATTERN, pattern, rank, label, tooltip,
                             p->cost, p->n_streams, p->n_events);
}

static void
build_model (WsMiningPage *self)
{
  Result *r = self->result;
  guint n = ws_cluster_set_get_n_clusters (r->clusters);
  g_autoptr(GPtrArray) items = g_ptr_array_new_with_free_func (g_object_unref);

  for (guint c = 0; c < n; c++)
    {
      const WsCluster *cl = ws_cluster_set_get_cluster (r->clusters, c);
      const WsPattern *top = ws_pattern_set_get_pattern (r->patterns, cl->patterns[0]);
      g_autofree char *label = pattern_label (ws_stack_db_get_stack_table (r->db), r->similarity, top);
      g_autofree char *tooltip = pattern_tooltip (ws_stack_db_get_stack_table (r->db), top);
      WsMiningItem *item;

      item = ws_mining_item_new (WS_MINING_ITEM_CLUSTER, c, c + 1, label, tooltip,
                                 cl->total_cost, cl->n_streams, cl->n_events);
      ws_mining_item_set_signature (item, g_hash_table_contains (self->signed_patterns,
                                                                 GUINT_TO_POINTER (cl->patterns[0] + 1)));
      if (cl->n_patterns > 1)
        for (guint k = 0; k < cl->n_patterns; k++)
          {
            g_autoptr(WsMiningItem) child = pattern_item (r, cl->patterns[k], k + 1);
            ws_mining_item_add_child (item, child);
          }
      g_ptr_array_add (items, item);
    }
  g_list_store_splice (self->roots, 0, g_list_model_get_n_items (G_LIST_MODEL (self->roots)),
                       items->pdata, items->len);
}

static GListModel *
create_children (gpointer item,
                 gpointer user_data)
{
  GListModel *children = ws_mining_item_get_children (item);
  return children && g_list_model_get_n_items (children) > 0 ? g_object_ref (children) : NULL;
}

/* The item of a table row; the row keeps it alive. */
static WsMiningItem *
row_item (GtkTreeListRow *row)
{
  WsMiningItem *item = gtk_tree_list_row_get_item (row);

  g_object_unref (item);
  return item;
}

typedef enum {
  COL_RANK,
  COL_LABEL,
  COL_TOTAL,
  COL_STREAMS,
  COL_EVENTS,
  COL_AVERAGE,
} Column;

static void
setup_cell (GtkSignalListItemFactory *factory,
            GtkListItem              *list_item,
            gpointer                  user_data)
{
  Column column = GPOINTER_TO_UINT (user_data);
  GtkWidget *label = gtk_label_new (NULL);

  gtk_label_set_single_line_mode (GTK_LABEL (label), TRUE);
  if (column == COL_LABEL)
    {
      GtkWidget *expander = gtk_tree_expander_new ();
      GtkWidget *box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
      GtkWidget *count = gtk_label_new (NULL);

      gtk_label_set_xalign (GTK_LABEL (label), 0);
      gtk_label_set_ellipsize (GTK_LABEL (label), PANGO_ELLIPSIZE_END);
      gtk_label_set_width_chars (GTK_LABEL (label), 18);
      gtk_widget_set_hexpand (label, TRUE);
      gtk_widget_add_css_class (count, "dim-label");
      gtk_widget_add_css_class (count, "caption");
      gtk_widget_add_css_class (count, "numeric");
      gtk_box_append (GTK_BOX (box), label);
      gtk_box_append (GTK_BOX (box), count);
      gtk_tree_expander_set_child (GTK_TREE_EXPANDER (expander), box);
      gtk_list_item_set_child (list_item, expander);
    }
  else
    {
      gtk_label_set_xalign (GTK_LABEL (label), 1);
      gtk_widget_add_css_class (label, "numeric");
      gtk_list_item_set_child (list_item, label);
    }
}

/* Clusters with a signature read in bold. */
static void
signature_changed_cb (WsMiningItem *item,
                      GParamSpec   *pspec,
                      GtkLabel     *label)
{
  PangoAttrList *attrs = pango_attr_list_new ();

  if (ws_mining_item_get_signature (item))
    pango_attr_list_insert (attrs, pango_attr_weight_new (PANGO_WEIGHT_BOLD));
  gtk_label_set_attributes (label, attrs);
  pango_attr_list_unref (attrs);
}

static void
bind_cell (GtkSignalListItemFactory *factory,
           GtkListItem              *list_item,
           gpointer                  user_data)
{
  Column column = GPOINTER_TO_UINT (user_data);
  GtkTreeListRow *row = gtk_list_item_get_item (list_item);
  WsMiningItem *item = row_item (row);
  GtkWidget *child = gtk_list_item_get_child (list_item);
  GtkWidget *box = column == COL_LABEL ? gtk_tree_expander_get_child (GTK_TREE_EXPANDER (child)) : NULL;
  GtkWidget *label = box ? gtk_widget_get_first_child (box) : child;
  gboolean cluster = ws_mining_item_get_kind (item) == WS_MINING_ITEM_CLUSTER;
  g_autofree char *text = NULL;

  switch (column)
    {
    case COL_RANK:
      /* Patterns: their place within the cluster, dimmed. */
      text = cluster ? g_strdup_printf ("%u", ws_mining_item_get_rank (item))
                     : g_strdup_printf ("%u.%u", ws_mining_item_get_cluster (item) + 1, ws_mining_item_get_rank (item));
      break;
    case COL_LABEL:
      {
        GListModel *children = ws_mining_item_get_children (item);
        guint n = children ? g_list_model_get_n_items (children) : 0;
        GtkWidget *count = gtk_widget_get_last_child (box);
        g_autofree char *n_text = n > 1 ? g_strdup_printf ("×%u", n) : NULL;

        gtk_tree_expander_set_list_row (GTK_TREE_EXPANDER (child), row);
        text = g_strdup (ws_mining_item_get_label (item));
        gtk_widget_set_tooltip_text (label, ws_mining_item_get_tooltip (item));
        gtk_label_set_text (GTK_LABEL (count), n_text ? n_text : "");
        if (n > 1)
          {
            g_autofree char *tip = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u pattern in this cluster",
                                                                 "%u patterns in this cluster", n), n);
            gtk_widget_set_tooltip_text (count, tip);
          }
      }
      break;
    case COL_TOTAL:
      text = format_cost (ws_mining_item_get_total_cost (item));
      break;
    case COL_STREAMS:
      text = g_strdup_printf ("%u", ws_mining_item_get_n_streams (item));
      break;
    case COL_EVENTS:
      text = g_strdup_printf ("%" G_GUINT64_FORMAT, ws_mining_item_get_n_events (item));
      break;
    case COL_AVERAGE:
      text = format_cost (ws_mining_item_get_average_cost (item));
      break;
    }
  gtk_label_set_text (GTK_LABEL (label), text);
  if (cluster)
    gtk_widget_remove_css_class (label, "dim-label");
  else if (column != COL_LABEL)
    gtk_widget_add_css_class (label, "dim-label");
  if (column == COL_LABEL)
    {
      /* Kept on the label so that unbind finds it even once the row has
       * let go of it. */
      signature_changed_cb (item, NULL, GTK_LABEL (label));
      g_signal_connect_object (item, "notify::signature", G_CALLBACK (signature_changed_cb), label, 0);
      g_object_set_data_full (G_OBJECT (label), "ws-item", g_object_ref (item), g_object_unref);
    }
}

static void
unbind_cell (GtkSignalListItemFactory *factory,
             GtkListItem              *list_item,
             gpointer                  user_data)
{
  if (GPOINTER_TO_UINT (user_data) == COL_LABEL)
    {
      GtkTreeExpander *expander = GTK_TREE_EXPANDER (gtk_list_item_get_child (list_item));
      GtkWidget *label = gtk_widget_get_first_child (gtk_tree_expander_get_child (expander));
      WsMiningItem *item = g_object_get_data (G_OBJECT (label), "ws-item");

      if (item != NULL)
        g_signal_handlers_disconnect_by_func (item, signature_changed_cb, label);
      g_object_set_data (G_OBJECT (label), "ws-item", NULL);
      gtk_tree_expander_set_list_row (expander, NULL);
    }
}

static void
add_column (WsMiningPage *self,
            Column        column,
            const char   *title,
            const char   *property,
            GType         type,
            gboolean      expand)
{
  GtkListItemFactory *factory = gtk_signal_list_item_factory_new ();
  GtkColumnViewColumn *col;

  g_signal_connect (factory, "setup", G_CALLBACK (setup_cell), GUINT_TO_POINTER (column));
  g_signal_connect (factory, "bind", G_CALLBACK (bind_cell), GUINT_TO_POINTER (column));
  g_signal_connect (factory, "unbind", G_CALLBACK (unbind_cell), GUINT_TO_POINTER (column));
  col = gtk_column_view_column_new (title, factory);
  gtk_column_view_column_set_expand (col, expand);
  gtk_column_view_column_set_resizable (col, TRUE);
  if (property != NULL)
    {
      GtkExpression *expr = gtk_property_expression_new (WS_TYPE_MINING_ITEM, NULL, property);
      GtkSorter *sorter;

      if (type == G_TYPE_STRING)
        sorter = GTK_SORTER (gtk_string_sorter_new (expr));
      else
        {
          sorter = GTK_SORTER (gtk_numeric_sorter_new (expr));
          /* Costs and counts read best largest first. */
          if (column != COL_RANK)
            gtk_numeric_sorter_set_sort_order (GTK_NUMERIC_SORTER (sorter), GTK_SORT_DESCENDING);
        }
      gtk_column_view_column_set_sorter (col, sorter);
      g_object_unref (sorter);
    }
  gtk_column_view_append_column (self->cluster_view, col);
  g_object_unref (col);
}

/* ------------------------------------------------------------------ */
/* Selection: the alignment of a cluster                                */

static WsMiningItem *
selected_item (WsMiningPage *self)
{
  GtkTreeListRow *row;

  if (self->selection == NULL)
    return NULL;
  row = gtk_single_selection_get_selected_item (self->selection);
  return row ? row_item (row) : NULL;
}

static WsAlignmentGrid *
build_grid (WsMiningPage *self,
            guint         cluster)
{
  Result *r = self->result;
  const WsCluster *cl = ws_cluster_set_get_cluster (r->clusters, cluster);
  guint n = MIN (cl->n_patterns, MAX_ALIGNED_PATTERNS);
  g_autofree const WsFrameId **frames = g_new0 (const WsFrameId *, n);
  g_autofree guint *lengths = g_new0 (guint, n);
  WsAlignmentGrid *grid;

  g_free (self->grid_patterns);
  self->grid_patterns = g_new (guint, n);
  for (guint k = 0; k < n; k++)
    {
      const WsPattern *p = ws_pattern_set_get_pattern (r->patterns, cl->patterns[k]);
      self->grid_patterns[k] = cl->patterns[k];
      frames[k] = p->frames;
      lengths[k] = p->n_frames;
    }

  /* Every pattern aligned to the costliest (the cluster lists them by
   * decreasing cost). */
  grid = ws_alignment_grid_new_aligned (r->similarity, frames, lengths, n);
  for (guint k = 0; k < n; k++)
    {
      const WsPattern *p = ws_pattern_set_get_pattern (r->patterns, cl->patterns[k]);
      g_autofree char *cost = format_cost (p->cost);
      g_autofree char *title = g_strdup_printf ("%u.%u · %s", cluster + 1, k + 1, cost);
      /* Translators: under a pattern's heading in the alignment */
      g_autofree char *subtitle = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u trace · %llu events",
                                                                "%u traces · %llu events", p->n_streams),
                                                   p->n_streams, (unsigned long long) p->n_events);
      ws_alignment_grid_set_title (grid, k, title, subtitle);
    }
  return grid;
}

static void
update_detail (WsMiningPage *self)
{
  WsMiningItem *item = selected_item (self);
  guint cluster;
  g_autofree char *text = NULL;

  if (item == NULL || self->result == NULL)
    {
      self->shown_cluster = G_MAXUINT;
      g_clear_pointer (&self->grid, ws_alignment_grid_unref);
      ws_alignment_view_set_grid (self->alignment_view, NULL);
      gtk_label_set_text (self->detail_label, "");
      update_actions (self);
      return;
    }

  cluster = ws_mining_item_get_cluster (item);
  if (cluster != self->shown_cluster)
    {
      g_clear_pointer (&self->grid, ws_alignment_grid_unref);
      self->grid = build_grid (self, cluster);
      self->shown_cluster = cluster;
      ws_alignment_view_set_grid (self->alignment_view, self->grid);
    }

  if (ws_mining_item_get_kind (item) == WS_MINING_ITEM_PATTERN)
    {
      guint column = WS_NONE;
      for (guint k = 0; k < ws_alignment_grid_get_n_patterns (self->grid); k++)
        if (self->grid_patterns[k] == ws_mining_item_get_index (item))
          column = k;
      ws_alignment_view_set_selected_pattern (self->alignment_view, column);
      /* Translators: the alignment's caption for a pattern (cluster.pattern) */
      text = g_strdup_printf (_("Pattern %u.%u, ringed among the patterns of its cluster. Double-click a row or press Space to pick its frame for a signature."),
                              cluster + 1, ws_mining_item_get_rank (item));
    }
  else
    {
      const WsCluster *cl = ws_cluster_set_get_cluster (self->result->clusters, cluster);
      guint n_common = ws_alignment_grid_count_rows (self->grid, WS_ALIGNMENT_ROW_COMMON);

      ws_alignment_view_set_selected_pattern (self->alignment_view, WS_NONE);
      if (cl->n_patterns > 1)
        /* Translators: the alignment's caption for a cluster */
        text = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                             "Cluster %u: %u pattern aligned to its costliest; %u frames in common (green), the variant parts in yellow. Double-click a row or press Space to pick its frame for a signature.",
                                             "Cluster %u: %u patterns aligned to their costliest; %u frames in common (green), the variant parts in yellow. Double-click a row or press Space to pick its frame for a signature.",
                                             cl->n_patterns),
                                cluster + 1, cl->n_patterns, n_common);
      else
        text = g_strdup_printf (_("Cluster %u: a single pattern. Double-click a row or press Space to pick its frame for a signature."),
                                cluster + 1);
    }
  gtk_label_set_text (self->detail_label, text);
  update_actions (self);
}

static void
selection_changed_cb (WsMiningPage *self)
{
  update_detail (self);
}

static void
alignment_pattern_activated_cb (WsMiningPage    *self,
                                guint            column,
                                WsAlignmentView *view)
{
  GListModel *model = G_LIST_MODEL (self->selection);
  guint pattern;

  if (self->grid_patterns == NULL || column >= ws_alignment_grid_get_n_patterns (self->grid))
    return;
  pattern = self->grid_patterns[column];

  /* Select that pattern's row, expanding its cluster if needed. */
  for (guint i = 0; i < g_list_model_get_n_items (model); i++)
    {
      g_autoptr(GtkTreeListRow) row = g_list_model_get_item (model, i);
      WsMiningItem *item = row_item (row);

      if (ws_mining_item_get_cluster (item) != self->shown_cluster)
        continue;
      if (ws_mining_item_get_kind (item) == WS_MINING_ITEM_CLUSTER && gtk_tree_list_row_is_expandable (row))
        gtk_tree_list_row_set_expanded (row, TRUE);
      else if (ws_mining_item_get_kind (item) == WS_MINING_ITEM_PATTERN && ws_mining_item_get_index (item) == pattern)
        {
          gtk_single_selection_set_selected (self->selection, i);
          return;
        }
    }
}

/* ------------------------------------------------------------------ */
/* Results                                                              */

static void
show_results (WsMiningPage *self)
{
  Result *r = self->result;
  guint n_clusters = ws_cluster_set_get_n_clusters (r->clusters);
  guint n_patterns = ws_pattern_set_get_n_patterns (r->patterns);
  g_autofree char *lambda = ws_format_duration (r->lambda);
  g_autofree char *total = ws_format_duration (ws_stack_db_get_total_cost (r->db));
  g_autofree char *patterns = NULL;
  g_autofree char *summary = NULL;

  self->shown_cluster = G_MAXUINT;
  build_model (self);

  if (n_patterns == 0)
    {
      g_autofree char *desc = NULL;

      adw_status_page_set_icon_name (self->error_page, "edit-find-symbolic");
      adw_status_page_set_title (self->error_page, _("No Costly Patterns"));
      if (ws_stack_db_get_n_entries (r->db) == 0)
        desc = g_strdup (_("No stack is in the area of interest: widen the scope or loosen the filters."));
      else
        /* Translators: the stacks' total cost, then λ */
        desc = g_strdup_printf (_("The stacks in the area of interest cost %s in all; no pattern reaches λ = %s. Lower λ to see more."),
                                total, lambda);
      adw_status_page_set_description (self->error_page, desc);
      gtk_stack_set_visible_child_name (self->results_stack, "error");
      set_status (self, _("No costly patterns"));
      return;
    }

  patterns = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u pattern", "%u patterns", n_patterns), n_patterns);
  /* Translators: summary above the cluster table:
   * "37 patterns in 12 clusters · λ 50.0 ms of 4.21 s" */
  summary = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%s in %u cluster · λ %s of %s",
                                          "%s in %u clusters · λ %s of %s", n_clusters),
                             patterns, n_clusters, lambda, total);
  gtk_label_set_text (self->summary_label, summary);
  {
    g_autofree char *tip = g_strdup_printf (_("%u stacks from %u traces, mined and clustered in %.2f s. Function weights from %s."),
                                            ws_stack_db_get_n_entries (r->db), r->traces->len, r->elapsed_us / 1e6,
                                            r->history_used ? _("the history of every imported trace")
                                                            : _("these traces only (no history store)"));
    gtk_widget_set_tooltip_text (GTK_WIDGET (self->summary_label), tip);
  }
  gtk_stack_set_visible_child_name (self->results_stack, "results");
  set_status (self, summary);
  if (g_list_model_get_n_items (G_LIST_MODEL (self->selection)) > 0)
    gtk_single_selection_set_selected (self->selection, 0);
  update_detail (self);
}

static void
set_busy (WsMiningPage *self,
          gboolean      busy)
{
  if (self->busy == busy)
    return;
  self->busy = busy;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_BUSY]);
  update_actions (self);
}

static void
mine_done (GObject      *source,
           GAsyncResult *res,
           gpointer      user_data)
{
  WsMiningPage *self = WS_MINING_PAGE (source);
  guint generation = GPOINTER_TO_UINT (user_data);
  g_autoptr(GError) error = NULL;
  Result *result = g_task_propagate_pointer (G_TASK (res), &error);

  /* Superseded by a newer run, or the page is gone. */
  if (generation != self->generation || self->results_stack == NULL)
    {
      if (result)
        result_unref (result);
      return;
    }
  set_busy (self, FALSE);

  if (result == NULL)
    {
      if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED) ||
          g_error_matches (error, WS_ERROR, WS_ERROR_CANCELLED))
        {
          gtk_stack_set_visible_child_name (self->results_stack, self->result ? "results" : "empty");
          toast (self, _("Mining cancelled"));
        }
      else
        {
          adw_status_page_set_icon_name (self->error_page, "dialog-warning-symbolic");
          adw_status_page_set_title (self->error_page, _("Could Not Mine"));
          adw_status_page_set_description (self->error_page, error->message);
          gtk_stack_set_visible_child_name (self->results_stack, "error");
          set_status (self, error->message);
        }
      g_signal_emit (self, signals[FINISHED], 0);
      return;
    }

  g_clear_pointer (&self->result, result_unref);
  self->result = result;
  g_hash_table_remove_all (self->signed_patterns);
  show_results (self);
  rebuild_coverage (self);
  /* Results need the room more than the settings, which stay a click away. */
  if (ws_pattern_set_get_n_patterns (result->patterns) > 0)
    gtk_toggle_button_set_active (self->settings_button, FALSE);
  g_signal_emit (self, signals[FINISHED], 0);
}

/**
 * ws_mining_page_run:
 *
 * Mines the checked traces with the current settings, cancelling a run in
 * progress.
 */
void
ws_mining_page_run (WsMiningPage *self)
{
  g_autoptr(GTask) task = NULL;
  g_autoptr(GPtrArray) chosen = NULL;
  Job *job;

  g_return_if_fail (WS_IS_MINING_PAGE (self));

  chosen = chosen_documents (self);
  if (chosen->len == 0)
    {
      toast (self, _("Open a trace and tick it to mine it"));
      return;
    }

  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  self->cancellable = g_cancellable_new ();
  self->generation++;

  job = g_new0 (Job, 1);
  job->page = g_object_ref (self);
  job->documents = g_ptr_array_ref (chosen);
  job->traces = g_ptr_array_new_with_free_func (g_object_unref);
  for (guint i = 0; i < chosen->len; i++)
    g_ptr_array_add (job->traces, g_object_ref (ws_document_get_trace (g_ptr_array_index (chosen, i))));
  job->running = adw_combo_row_get_selected (self->kind_row) == 1;
  job->include = g_strdup (gtk_editable_get_text (GTK_EDITABLE (self->include_row)));
  job->exclude = g_strdup (gtk_editable_get_text (GTK_EDITABLE (self->exclude_row)));
  job->threads = g_strdup (gtk_editable_get_text (GTK_EDITABLE (self->threads_row)));
  job->critical_path = gtk_switch_get_active (self->critical_switch);
  job->scope = adw_combo_row_get_selected (self->scope_row);
  job->lambda = ws_mining_page_get_lambda (self);
  job->threshold = gtk_spin_button_get_value (self->threshold_spin);
  job->rank = gtk_drop_down_get_selected (self->rank_dropdown);
  job->history_path = self->session ? g_strdup (ws_session_get_history_path (self->session)) : NULL;
  job->record_history = self->session == NULL || ws_session_get_record_history (self->session);
  job->generation = self->generation;
  {
    WsDocument *current = self->session ? ws_session_get_current_document (self->session) : NULL;
    guint thread;
    WsTime t0, t1;

    if (current != NULL && document_ready (current) &&
        ws_timeline_viewport_get_selection (ws_document_get_viewport (current), &thread, &t0, &t1))
      {
        job->selection_document = current;
        job->selection.thread = thread;
        job->selection.t0 = t0;
        job->selection.t1 = t1;
      }
  }

  gtk_progress_bar_set_fraction (self->progress_bar, 0);
  gtk_progress_bar_set_text (self->progress_bar, _("Starting…"));
  {
    g_autofree char *title = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "Mining %u Trace…", "Mining %u Traces…",
                                                           chosen->len), chosen->len);
    adw_status_page_set_title (self->running_page, title);
  }
  gtk_stack_set_visible_child_name (self->results_stack, "running");
  set_busy (self, TRUE);
  set_status (self, _("Mining…"));

  task = g_task_new (self, self->cancellable, mine_done, GUINT_TO_POINTER (self->generation));
  g_task_set_source_tag (task, ws_mining_page_run);
  g_task_set_task_data (task, job, (GDestroyNotify) job_free);
  g_task_set_return_on_cancel (task, FALSE);
  g_task_run_in_thread (task, mine_thread);
}

void
ws_mining_page_cancel (WsMiningPage *self)
{
  g_return_if_fail (WS_IS_MINING_PAGE (self));
  g_cancellable_cancel (self->cancellable);
}

static void
run_action (GtkWidget  *widget,
            const char *action_name,
            GVariant   *param)
{
  ws_mining_page_run (WS_MINING_PAGE (widget));
}

static void
cancel_action (GtkWidget  *widget,
               const char *action_name,
               GVariant   *param)
{
  ws_mining_page_cancel (WS_MINING_PAGE (widget));
}

static void
rank_changed_cb (WsMiningPage *self)
{
  if (self->result == NULL || self->busy)
    return;
  ws_cluster_set_rank (self->result->clusters, gtk_drop_down_get_selected (self->rank_dropdown));
  show_results (self);
}

/* ------------------------------------------------------------------ */
/* Events that contain a pattern                                        */

typedef struct {
  Result   *result;
  GPtrArray *patterns;   /* WsFrameId arrays (GArray) in the db's table */
  char     *label;
  guint     prefer;      /* stream to show if it has matches */
} EventsJob;

typedef struct {
  guint          stream;
  WsStackSearch *search;
  guint          n_traces;   /* streams with at least one match */
  guint64        n_matches;  /* over all streams */
} EventsResult;

static void
events_job_free (EventsJob *job)
{
  result_unref (job->result);
  g_ptr_array_unref (job->patterns);
  g_free (job->label);
  g_free (job);
}

static void
events_result_free (EventsResult *r)
{
  g_clear_object (&r->search);
  g_free (r);
}

static char *
frame_key (const WsFrame *f)
{
  return g_strconcat (f->function ? f->function : "", "\x1f", f->module ? f->module : "", NULL);
}

/* The matches of @trace: events whose stack contains one of the patterns
 * as a subsequence.  The patterns' frames are looked up by name in the
 * trace's own table (frame ids differ between tables). */
static WsStackSearch *
match_trace (EventsJob     *job,
             WsTrace       *trace,
             GCancellable  *cancellable,
             GError       **error)
{
  WsStackTable *source = ws_stack_db_get_stack_table (job->result->db);
  WsStackTable *table = ws_trace_get_stack_table (trace);
  guint n_frames = ws_stack_table_get_n_frames (table), n_stacks = ws_stack_table_get_n_stacks (table);
  g_autoptr(GHashTable) ids = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_autoptr(GPtrArray) mapped = g_ptr_array_new_with_free_func ((GDestroyNotify) g_array_unref);
  g_autofree guint8 *stack_match = g_new0 (guint8, MAX (n_stacks, 1));
  g_autofree guint8 *frame_match = g_new0 (guint8, MAX (n_frames, 1));

  for (guint f = 0; f < n_frames; f++)
    g_hash_table_insert (ids, frame_key (ws_stack_table_get_frame (table, f)), GUINT_TO_POINTER (f + 1));

  for (guint p = 0; p < job->patterns->len; p++)
    {
      GArray *frames = g_ptr_array_index (job->patterns, p);
      GArray *m = g_array_sized_new (FALSE, FALSE, sizeof (WsFrameId), frames->len);
      gboolean complete = TRUE;

      for (guint k = 0; k < frames->len && complete; k++)
        {
          g_autofree char *key = frame_key (ws_stack_table_get_frame (source, g_array_index (frames, WsFrameId, k)));
          guint id = GPOINTER_TO_UINT (g_hash_table_lookup (ids, key));
          WsFrameId fid = id - 1;

          complete = id != 0;
          if (complete)
            {
              g_array_append_val (m, fid);
              frame_match[fid] = 1;
            }
        }
      /* A frame this trace never saw: no stack of it can contain the pattern. */
      if (complete)
        g_ptr_array_add (mapped, m);
      else
        g_array_unref (m);
    }

  for (guint s = 1; s < n_stacks && mapped->len > 0; s++)
    {
      guint n;
      const WsFrameId *frames = ws_stack_table_get_stack (table, s, &n);

      for (guint p = 0; p < mapped->len && !stack_match[s]; p++)
        {
          GArray *m = g_ptr_array_index (mapped, p);
          stack_match[s] = ws_frames_is_subsequence ((const WsFrameId *) m->data, m->len, frames, n);
        }
      if ((s & 0xfff) == 0 && g_cancellable_set_error_if_cancelled (cancellable, error))
        return NULL;
    }
  return ws_stack_search_new_from_stacks (trace, job->label, stack_match, frame_match, cancellable, error);
}

static void
events_thread (GTask        *task,
               gpointer      source_object,
               gpointer      task_data,
               GCancellable *cancellable)
{
  EventsJob *job = task_data;
  EventsResult *result = g_new0 (EventsResult, 1);

  result->stream = G_MAXUINT;
  for (guint s = 0; s < job->result->traces->len; s++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(WsStackSearch) search = match_trace (job, g_ptr_array_index (job->result->traces, s),
                                                     cancellable, &error);
      guint n;

      if (search == NULL)
        {
          events_result_free (result);
          g_task_return_error (task, g_steal_pointer (&error));
          return;
        }
      n = ws_stack_search_get_n_matches (search);
      result->n_matches += n;
      result->n_traces += n > 0;
      if (n > 0 && (result->search == NULL || s == job->prefer))
        {
          g_set_object (&result->search, search);
          result->stream = s;
        }
    }
  g_task_return_pointer (task, result, (GDestroyNotify) events_result_free);
}

static void
events_done (GObject      *source,
             GAsyncResult *res,
             gpointer      user_data)
{
  WsMiningPage *self = WS_MINING_PAGE (source);
  g_autoptr(GError) error = NULL;
  EventsResult *result = g_task_propagate_pointer (G_TASK (res), &error);
  Result *mined = user_data;
  g_autofree char *text = NULL;

  if (result == NULL)
    {
      if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED) &&
          !g_error_matches (error, WS_ERROR, WS_ERROR_CANCELLED) && self->results_stack != NULL)
        toast (self, error->message);
      result_unref (mined);
      return;
    }

  if (result->search == NULL)
    toast (self, _("No event of the open traces contains this pattern"));
  else
    {
      WsDocument *document = g_ptr_array_index (mined->documents, result->stream);
      guint n = ws_stack_search_get_n_matches (result->search);

      if (result->n_traces > 1)
        /* Translators: events of the shown trace, then events and traces overall */
        text = g_strdup_printf (_("%u events in %s (%llu in %u traces)"),
                                n, ws_document_get_title (document), (unsigned long long) result->n_matches, result->n_traces);
      else
        text = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u event in %s", "%u events in %s", n),
                                n, ws_document_get_title (document));
      set_status (self, text);
      g_signal_emit (self, signals[SHOW_EVENTS], 0, document, result->search);
    }
  events_result_free (result);
  result_unref (mined);
}

static GArray *
pattern_frames (Result *r,
                guint   pattern)
{
  const WsPattern *p = ws_pattern_set_get_pattern (r->patterns, pattern);
  GArray *a = g_array_sized_new (FALSE, FALSE, sizeof (WsFrameId), p->n_frames);

  g_array_append_vals (a, p->frames, p->n_frames);
  return a;
}

/**
 * ws_mining_page_show_events:
 *
 * Finds, in a worker, the events whose stack contains the selected
 * pattern (a cluster: any of its patterns) and emits ::show-events for the
 * current trace if it has any, else for the first mined trace that has.
 */
void
ws_mining_page_show_events (WsMiningPage *self)
{
  WsMiningItem *item;
  EventsJob *job;
  g_autoptr(GTask) task = NULL;

  g_return_if_fail (WS_IS_MINING_PAGE (self));

  item = selected_item (self);
  if (item == NULL || self->result == NULL)
    return;

  job = g_new0 (EventsJob, 1);
  job->result = result_ref (self->result);
  job->patterns = g_ptr_array_new_with_free_func ((GDestroyNotify) g_array_unref);
  job->prefer = G_MAXUINT;
  if (ws_mining_item_get_kind (item) == WS_MINING_ITEM_PATTERN)
    {
      g_ptr_array_add (job->patterns, pattern_frames (self->result, ws_mining_item_get_index (item)));
      /* Translators: what the timeline's search shows, e.g. "pattern 3.2" */
      job->label = g_strdup_printf (_("pattern %u.%u"), ws_mining_item_get_cluster (item) + 1,
                                    ws_mining_item_get_rank (item));
    }
  else
    {
      const WsCluster *cl = ws_cluster_set_get_cluster (self->result->clusters, ws_mining_item_get_index (item));
      for (guint k = 0; k < cl->n_patterns; k++)
        g_ptr_array_add (job->patterns, pattern_frames (self->result, cl->patterns[k]));
      job->label = g_strdup_printf (_("cluster %u"), ws_mining_item_get_index (item) + 1);
    }

  if (self->session != NULL)
    {
      WsDocument *current = ws_session_get_current_document (self->session);
      for (guint s = 0; s < self->result->documents->len; s++)
        if (g_ptr_array_index (self->result->documents, s) == current)
          job->prefer = s;
    }

  g_cancellable_cancel (self->events_cancellable);
  g_clear_object (&self->events_cancellable);
  self->events_cancellable = g_cancellable_new ();
  task = g_task_new (self, self->events_cancellable, events_done, result_ref (self->result));
  g_task_set_source_tag (task, ws_mining_page_show_events);
  g_task_set_task_data (task, job, (GDestroyNotify) events_job_free);
  g_task_run_in_thread (task, events_thread);
}

static void
show_events_action (GtkWidget  *widget,
                    const char *action_name,
                    GVariant   *param)
{
  ws_mining_page_show_events (WS_MINING_PAGE (widget));
}

/* ------------------------------------------------------------------ */
/* Signatures and coverage                                              */

/* A signature outlives a run: it is kept by frame names and matched again
 * in each new run's stack database (λ or the scope may change, the
 * analyst's signatures should not). */
typedef struct {
  char  *name;
  GStrv  keys;     /* frame_key() of each function, caller first */
} Signature;

static void
signature_free (gpointer data)
{
  Signature *sig = data;

  g_free (sig->name);
  g_strfreev (sig->keys);
  g_free (sig);
}

static const char * const ranking_names[] = {
  N_("StackMine ranking"), N_("Random"), N_("Greedy-Total"), N_("Greedy-Max"),
};

static char *
percent (double fraction)
{
  /* Translators: a coverage in percent */
  return g_strdup_printf (_("%.1f %%"), fraction * 100);
}

static char *
streams_text (double streams)
{
  if (streams < 0)
    /* Translators: a coverage no order of streams reaches */
    return g_strdup (_("never"));
  if (streams == floor (streams))
    return g_strdup_printf ("%.0f", streams);
  return g_strdup_printf ("%.1f", streams);
}

static void
grid_cell (GtkGrid    *grid,
           const char *text,
           int         column,
           int         row,
           gboolean    heading)
{
  GtkWidget *label = gtk_label_new (text);

  gtk_label_set_xalign (GTK_LABEL (label), column == 0 ? 0 : 1);
  if (heading)
    gtk_widget_add_css_class (label, "caption-heading");
  else if (column > 0)
    gtk_widget_add_css_class (label, "numeric");
  gtk_grid_attach (grid, label, column, row, 1, 1);
}

/* What the chart and the table show, computed off the main thread: the
 * Random curve averages 1000 shuffles, and each "streams to reach" runs
 * the orders again, which takes seconds on thousands of streams. */
typedef struct _Curves {
  GArray *curve[WS_N_RANKINGS];    /* double, k = 0…n */
  double  to_half[WS_N_RANKINGS];  /* streams to reach half the total, or -1 */
  double  to_full[WS_N_RANKINGS];
  double  total;
  guint   n_streams;
} Curves;

static void
curves_free (Curves *curves)
{
  for (guint r = 0; r < WS_N_RANKINGS; r++)
    g_clear_pointer (&curves->curve[r], g_array_unref);
  g_free (curves);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (Curves, curves_free)

/* The coverage is not changed once its signatures are added (the page
 * builds a new one for each change), so the worker reads it unlocked. */
static void
curves_thread (GTask        *task,
               gpointer      source_object,
               gpointer      task_data,
               GCancellable *cancellable)
{
  WsCoverage *coverage = task_data;
  g_autoptr(Curves) curves = g_new0 (Curves, 1);

  curves->total = ws_coverage_get_total_coverage (coverage);
  for (guint r = 0; r < WS_N_RANKINGS; r++)
    {
      if (g_task_return_error_if_cancelled (task))
        return;
      curves->curve[r] = ws_coverage_curve (coverage, r, 0, 1);
      curves->to_half[r] = ws_coverage_streams_to_reach (coverage, r, curves->total / 2, 0, 1);
      curves->to_full[r] = ws_coverage_streams_to_reach (coverage, r, curves->total, 0, 1);
    }
  curves->n_streams = curves->curve[0]->len - 1;
  g_task_return_pointer (task, g_steal_pointer (&curves), (GDestroyNotify) curves_free);
}

static void update_coverage_plot (WsMiningPage *self);
static void update_coverage_table (WsMiningPage *self);

static void
curves_done (GObject      *source,
             GAsyncResult *res,
             gpointer      user_data)
{
  WsMiningPage *self = WS_MINING_PAGE (source);
  g_autoptr(GError) error = NULL;
  Curves *curves = g_task_propagate_pointer (G_TASK (res), &error);

  /* A newer computation (or none: signatures removed) supersedes this. */
  if (curves == NULL || GPOINTER_TO_UINT (user_data) != self->coverage_generation)
    {
      g_clear_pointer (&curves, curves_free);
      return;
    }
  g_clear_pointer (&self->curves, curves_free);
  self->curves = curves;
  gtk_widget_set_visible (self->coverage_busy, FALSE);
  update_coverage_plot (self);
  update_coverage_table (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_COVERAGE_BUSY]);
}

/* Drops the curves shown and, if there are signatures, computes the new
 * ones in a thread, dropping any computation still running. */
static void
start_curves (WsMiningPage *self)
{
  g_autoptr(GTask) task = NULL;
  gboolean was_busy = gtk_widget_get_visible (self->coverage_busy);
  gboolean busy = self->coverage != NULL && ws_coverage_get_n_signatures (self->coverage) > 0;

  g_cancellable_cancel (self->coverage_cancellable);
  g_clear_object (&self->coverage_cancellable);
  g_clear_pointer (&self->curves, curves_free);
  self->coverage_generation++;
  gtk_widget_set_visible (self->coverage_busy, busy);
  update_coverage_plot (self);
  update_coverage_table (self);
  if (busy)
    {
      self->coverage_cancellable = g_cancellable_new ();
      task = g_task_new (self, self->coverage_cancellable, curves_done, GUINT_TO_POINTER (self->coverage_generation));
      g_task_set_source_tag (task, start_curves);
      g_task_set_task_data (task, g_object_ref (self->coverage), g_object_unref);
      g_task_run_in_thread (task, curves_thread);
    }
  if (busy != was_busy)
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_COVERAGE_BUSY]);
}

/* The table beside the chart: per technique, the coverage after one
 * stream and the streams needed for half and for all of the signatures'
 * coverage (Fig. 4's y values at those x). */
static void
update_coverage_table (WsMiningPage *self)
{
  GtkWidget *child;
  double total;
  g_autofree char *half_head = NULL;
  g_autofree char *full_head = NULL;
  Curves *curves = self->curves;

  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self->coverage_table))) != NULL)
    gtk_grid_remove (self->coverage_table, child);
  if (curves == NULL)
    return;

  total = curves->total;
  {
    g_autofree char *h = percent (total / 2);
    g_autofree char *f = percent (total);
    /* Translators: table heading: streams needed to reach a coverage */
    half_head = g_strdup_printf (_("To %s"), h);
    full_head = g_strdup_printf (_("To %s"), f);
  }
  grid_cell (self->coverage_table, _("Technique"), 0, 0, TRUE);
  grid_cell (self->coverage_table, _("After 1"), 1, 0, TRUE);
  grid_cell (self->coverage_table, half_head, 2, 0, TRUE);
  grid_cell (self->coverage_table, full_head, 3, 0, TRUE);
  for (guint r = 0; r < WS_N_RANKINGS; r++)
    {
      GArray *curve = curves->curve[r];
      g_autofree char *first = percent (curve->len > 1 ? g_array_index (curve, double, 1) : 0);
      g_autofree char *half = streams_text (curves->to_half[r]);
      g_autofree char *full = streams_text (curves->to_full[r]);

      grid_cell (self->coverage_table, _(ranking_names[r]), 0, r + 1, FALSE);
      grid_cell (self->coverage_table, first, 1, r + 1, FALSE);
      grid_cell (self->coverage_table, half, 2, r + 1, FALSE);
      grid_cell (self->coverage_table, full, 3, r + 1, FALSE);
    }
}

static void
update_coverage_plot (WsMiningPage *self)
{
  WsCoveragePlot *plot = ws_coverage_view_get_plot (self->coverage_view);
  Curves *curves = self->curves;

  ws_coverage_plot_clear (plot);
  if (curves != NULL)
    {
      static const WsCoverageSeriesStyle styles[] = {
        WS_COVERAGE_SERIES_EMPHASIS, WS_COVERAGE_SERIES_DASHED, WS_COVERAGE_SERIES_SOLID, WS_COVERAGE_SERIES_SOLID,
      };

      for (guint r = 0; r < WS_N_RANKINGS; r++)
        {
          GArray *curve = curves->curve[r];
          /* The curve starts at k = 0 (nothing inspected); the plot at k = 1. */
          ws_coverage_plot_add_series (plot, _(ranking_names[r]), (const double *) curve->data + 1,
                                       curve->len - 1, styles[r]);
        }
      double total = curves->total;
      guint n_streams = curves->n_streams;
      double last = 0;
      guint shown;

      /* After every order has reached the signatures' coverage the curves
       * are flat: show the streams up to there (with a margin), not all
       * 1,360 transactions of a trace. */
      for (guint r = 0; r < WS_N_RANKINGS; r++)
        last = MAX (last, curves->to_full[r]);
      shown = last < 0 ? n_streams : MIN (n_streams, MAX (10, (guint) ceil (last * 1.25)));
      ws_coverage_plot_set_target (plot, total);
      ws_coverage_plot_set_n_traces (plot, shown);
      if (shown < n_streams)
        {
          /* Translators: x axis title when the chart shows the first streams only */
          g_autofree char *title = g_strdup_printf (_("Trace streams inspected (first %u of %u; flat after)"),
                                                    shown, n_streams);
          ws_coverage_plot_set_x_title (plot, title);
        }
      else
        ws_coverage_plot_set_x_title (plot, NULL);
    }
  ws_coverage_view_changed (self->coverage_view);
  update_actions (self);
}

static void remove_signature_cb (GtkButton *button, WsMiningPage *self);

static void
update_signature_list (WsMiningPage *self)
{
  GtkWidget *child;

  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self->signature_list))) != NULL)
    gtk_list_box_remove (self->signature_list, child);

  for (guint i = 0; i < self->signatures->len; i++)
    {
      Signature *sig = g_ptr_array_index (self->signatures, i);
      GtkWidget *row = adw_action_row_new ();
      GtkWidget *remove = gtk_button_new_from_icon_name ("user-trash-symbolic");
      g_autofree char *subtitle = NULL;
      guint index = self->signature_index ? g_array_index (self->signature_index, guint, i) : G_MAXUINT;

      adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), sig->name);
      adw_preferences_row_set_use_markup (ADW_PREFERENCES_ROW (row), FALSE);
      if (self->coverage != NULL && index != G_MAXUINT)
        {
          g_autofree char *pct = percent (ws_coverage_get_signature_coverage (self->coverage, index));
          guint n = ws_coverage_get_signature_n_streams (self->coverage, index);
          /* Translators: a signature's coverage and in how many streams it shows */
          subtitle = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%s of the delay · %u stream",
                                                   "%s of the delay · %u streams", n), pct, n);
        }
      else
        subtitle = g_strdup (_("Not in this run's stacks"));
      adw_action_row_set_subtitle (ADW_ACTION_ROW (row), subtitle);
      {
        g_autofree char *frames = g_strjoinv (" → ", sig->keys);
        g_strdelimit (frames, "\x1f", ' ');
        gtk_widget_set_tooltip_text (row, frames);
      }
      gtk_widget_set_valign (remove, GTK_ALIGN_CENTER);
      gtk_widget_add_css_class (remove, "flat");
      gtk_widget_set_tooltip_text (remove, _("Remove the Signature"));
      gtk_accessible_update_property (GTK_ACCESSIBLE (remove), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                      _("Remove the signature"), -1);
      g_object_set_data (G_OBJECT (remove), "signature", sig);
      g_signal_connect (remove, "clicked", G_CALLBACK (remove_signature_cb), self);
      adw_action_row_add_suffix (ADW_ACTION_ROW (row), remove);
      gtk_list_box_append (self->signature_list, row);
    }

  if (self->signatures->len == 0)
    {
      GtkWidget *row = adw_action_row_new ();
      adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), _("No signatures yet"));
      adw_action_row_set_subtitle (ADW_ACTION_ROW (row),
                                   _("Pick a cluster and press Mark Signature: its common part, or the frames marked in the alignment"));
      gtk_widget_add_css_class (row, "dim-label");
      gtk_list_box_append (self->signature_list, row);
    }
}

/* Matches every signature against the current run's database. */
static void
rebuild_coverage (WsMiningPage *self)
{
  g_autoptr(GHashTable) ids = NULL;
  WsStackTable *table;

  g_clear_object (&self->coverage);
  g_clear_pointer (&self->signature_index, g_array_unref);
  if (self->result != NULL)
    {
      table = ws_stack_db_get_stack_table (self->result->db);
      ids = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
      for (guint f = 0; f < ws_stack_table_get_n_frames (table); f++)
        g_hash_table_insert (ids, frame_key (ws_stack_table_get_frame (table, f)), GUINT_TO_POINTER (f + 1));

      self->coverage = ws_coverage_new (self->result->db);
      self->signature_index = g_array_new (FALSE, FALSE, sizeof (guint));
      for (guint i = 0; i < self->signatures->len; i++)
        {
          Signature *sig = g_ptr_array_index (self->signatures, i);
          guint n = g_strv_length (sig->keys), index = G_MAXUINT;
          g_autofree WsFrameId *frames = g_new (WsFrameId, MAX (n, 1));
          gboolean complete = n > 0;

          for (guint k = 0; k < n && complete; k++)
            {
              guint id = GPOINTER_TO_UINT (g_hash_table_lookup (ids, sig->keys[k]));
              complete = id != 0;
              frames[k] = id - 1;
            }
          if (complete)
            index = ws_coverage_add_signature (self->coverage, sig->name, frames, n);
          g_array_append_val (self->signature_index, index);
        }
    }
  update_signature_list (self);
  start_curves (self);
}

static void
remove_signature_cb (GtkButton    *button,
                     WsMiningPage *self)
{
  Signature *sig = g_object_get_data (G_OBJECT (button), "signature");

  g_ptr_array_remove (self->signatures, sig);
  rebuild_coverage (self);
}

/* Frames of the signature: the rows marked in the alignment (in a variant
 * row, the selected pattern's frame, else the first there is), or the
 * cluster's common part. */
static GArray *
signature_frames (WsMiningPage *self,
                  guint         cluster)
{
  GArray *frames = g_array_new (FALSE, FALSE, sizeof (WsFrameId));
  guint selected = ws_alignment_view_get_selected_pattern (self->alignment_view);

  if (self->grid != NULL && ws_alignment_view_get_n_marked (self->alignment_view) > 0)
    {
      guint n_patterns = ws_alignment_grid_get_n_patterns (self->grid);

      for (guint r = 0; r < ws_alignment_grid_get_n_rows (self->grid); r++)
        {
          const WsAlignmentCell *cell = NULL;

          if (!ws_alignment_view_get_row_marked (self->alignment_view, r))
            continue;
          if (selected < n_patterns && ws_alignment_grid_get_cell (self->grid, r, selected)->function != NULL)
            cell = ws_alignment_grid_get_cell (self->grid, r, selected);
          for (guint k = 0; k < n_patterns && cell == NULL; k++)
            if (ws_alignment_grid_get_cell (self->grid, r, k)->function != NULL)
              cell = ws_alignment_grid_get_cell (self->grid, r, k);
          if (cell != NULL)
            g_array_append_val (frames, cell->frame);
        }
    }
  else
    {
      guint n;
      g_autofree WsFrameId *common = ws_coverage_cluster_common_frames (self->result->clusters, cluster, &n);
      g_array_append_vals (frames, common, n);
    }
  return frames;
}

/**
 * ws_mining_page_mark_signature:
 *
 * Keeps the frames marked in the alignment (or, with none marked, the
 * selected cluster's common part) as a performance signature, and
 * updates the coverage chart and table.
 *
 * Returns: %TRUE if a signature was added
 */
gboolean
ws_mining_page_mark_signature (WsMiningPage *self)
{
  WsMiningItem *item;
  g_autoptr(GArray) frames = NULL;
  WsStackTable *table;
  Signature *sig;
  g_autoptr(GStrvBuilder) keys = g_strv_builder_new ();
  WsPattern fake = { 0 };
  g_autofree char *label = NULL;
  g_autofree char *text = NULL;
  guint index;

  g_return_val_if_fail (WS_IS_MINING_PAGE (self), FALSE);

  item = selected_item (self);
  if (item == NULL || self->result == NULL)
    return FALSE;

  frames = signature_frames (self, ws_mining_item_get_cluster (item));
  if (frames->len == 0)
    {
      toast (self, _("The cluster's patterns have no frame in common: mark the frames to keep in the alignment"));
      return FALSE;
    }

  table = ws_stack_db_get_stack_table (self->result->db);
  for (guint k = 0; k < frames->len; k++)
    {
      g_autofree char *key = frame_key (ws_stack_table_get_frame (table, g_array_index (frames, WsFrameId, k)));
      g_strv_builder_add (keys, key);
    }
  fake.frames = (WsFrameId *) frames->data;
  fake.n_frames = frames->len;
  label = pattern_label (table, self->result->similarity, &fake);

  sig = g_new0 (Signature, 1);
  /* Translators: a signature's name: its number and its telling frames */
  sig->name = g_strdup_printf (_("S%u · %s"), self->signatures->len + 1, label);
  sig->keys = g_strv_builder_end (keys);
  g_ptr_array_add (self->signatures, sig);
  rebuild_coverage (self);

  /* The cluster row shows that it has a signature. */
  {
    const WsCluster *cl = ws_cluster_set_get_cluster (self->result->clusters, ws_mining_item_get_cluster (item));
    g_hash_table_add (self->signed_patterns, GUINT_TO_POINTER (cl->patterns[0] + 1));
  }
  for (guint i = 0; i < g_list_model_get_n_items (G_LIST_MODEL (self->roots)); i++)
    {
      g_autoptr(WsMiningItem) root = g_list_model_get_item (G_LIST_MODEL (self->roots), i);
      if (ws_mining_item_get_index (root) == ws_mining_item_get_cluster (item))
        ws_mining_item_set_signature (root, TRUE);
    }
  ws_alignment_view_clear_marks (self->alignment_view);

  index = g_array_index (self->signature_index, guint, self->signatures->len - 1);
  if (index != G_MAXUINT)
    {
      g_autofree char *pct = percent (ws_coverage_get_signature_coverage (self->coverage, index));
      g_autofree char *all = percent (ws_coverage_get_total_coverage (self->coverage));
      /* Translators: after marking a signature: its coverage, all signatures' coverage */
      text = g_strdup_printf (_("Signature S%u covers %s of the delay; all signatures %s"),
                              self->signatures->len, pct, all);
      toast (self, text);
    }
  return TRUE;
}

guint
ws_mining_page_get_n_signatures (WsMiningPage *self)
{
  g_return_val_if_fail (WS_IS_MINING_PAGE (self), 0);
  return self->signatures->len;
}

static void
mark_signature_action (GtkWidget  *widget,
                       const char *action_name,
                       GVariant   *param)
{
  ws_mining_page_mark_signature (WS_MINING_PAGE (widget));
}

/* ------------------------------------------------------------------ */
/* Actions                                                              */

static void
scope_changed_cb (WsMiningPage *self)
{
  Scope scope = adw_combo_row_get_selected (self->scope_row);
  static const char *const subtitles[] = {
    N_("Every event of each trace; each trace is a stream"),
    N_("Each instance's thread in its window; each instance is a stream"),
    N_("What each instance waited on, through its readiers; each instance is a stream"),
    N_("What the selected window of a thread waited on"),
  };

  /* The row's subtitle is the chosen scope; what it means, in the tooltip. */
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->scope_row), _(subtitles[MIN (scope, G_N_ELEMENTS (subtitles) - 1)]));
  gtk_widget_set_sensitive (GTK_WIDGET (self->critical_switch), scope_has_graph (scope));
}

static void
update_actions (WsMiningPage *self)
{
  g_autoptr(GPtrArray) chosen = NULL;
  gboolean has_item;

  if (self->results_stack == NULL)
    return;
  chosen = chosen_documents (self);
  has_item = !self->busy && self->result != NULL && selected_item (self) != NULL;
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "mining.run", chosen->len > 0);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "mining.cancel", self->busy);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "mining.show-events", has_item);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "mining.mark-signature", has_item);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "mining.export-alignment", self->grid != NULL);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "mining.export-coverage",
                                 ws_coverage_plot_get_n_series (ws_coverage_view_get_plot (self->coverage_view)) > 0);
}

/* ------------------------------------------------------------------ */
/* Exporting the figures                                                */

/**
 * ws_mining_page_export_alignment:
 * @path: ends in .png, .svg or .pdf
 *
 * Writes the alignment shown (the selected cluster's patterns, every row
 * unfolded) as a figure.
 *
 * Returns: %TRUE if written
 */
gboolean
ws_mining_page_export_alignment (WsMiningPage  *self,
                                 const char    *path,
                                 GError       **error)
{
  WsExportFormat format;

  g_return_val_if_fail (WS_IS_MINING_PAGE (self), FALSE);
  g_return_val_if_fail (path != NULL, FALSE);

  if (self->grid == NULL)
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_FAILED, _("There is no alignment to export: select a cluster"));
      return FALSE;
    }
  if (!ws_export_format_from_path (path, &format))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_FILENAME,
                   _("“%s” does not end in .png, .svg or .pdf"), path);
      return FALSE;
    }
  return ws_alignment_renderer_export (ws_alignment_view_get_renderer (self->alignment_view), self->grid,
                                       path, format, error);
}

/**
 * ws_mining_page_export_coverage:
 * @path: ends in .png, .svg or .pdf
 *
 * Writes the bottleneck-coverage chart (StackMine Fig. 4) of the marked
 * signatures as a 960 × 540 figure.
 *
 * Returns: %TRUE if written
 */
gboolean
ws_mining_page_export_coverage (WsMiningPage  *self,
                                const char    *path,
                                GError       **error)
{
  WsCoveragePlot *plot;
  WsExportFormat format;

  g_return_val_if_fail (WS_IS_MINING_PAGE (self), FALSE);
  g_return_val_if_fail (path != NULL, FALSE);

  plot = ws_coverage_view_get_plot (self->coverage_view);
  if (ws_mining_page_get_coverage_busy (self))
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_PENDING,
                           _("The coverage is still being computed: export it when the chart shows"));
      return FALSE;
    }
  if (ws_coverage_plot_get_n_series (plot) == 0)
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_FAILED,
                           _("There is no coverage to export: mark a signature first"));
      return FALSE;
    }
  if (!ws_export_format_from_path (path, &format))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_FILENAME,
                   _("“%s” does not end in .png, .svg or .pdf"), path);
      return FALSE;
    }
  return ws_coverage_plot_export (plot, path, format, COVERAGE_EXPORT_WIDTH, COVERAGE_EXPORT_HEIGHT, error);
}

static gboolean
export_alignment_to (GtkWidget   *widget,
                     const char  *path,
                     GError     **error)
{
  return ws_mining_page_export_alignment (WS_MINING_PAGE (widget), path, error);
}

static gboolean
export_coverage_to (GtkWidget   *widget,
                    const char  *path,
                    GError     **error)
{
  return ws_mining_page_export_coverage (WS_MINING_PAGE (widget), path, error);
}

static void
export_toast (GtkWidget  *widget,
              const char *message)
{
  toast (WS_MINING_PAGE (widget), message);
}

static void
export_alignment_action (GtkWidget  *widget,
                         const char *action_name,
                         GVariant   *param)
{
  WsMiningPage *self = WS_MINING_PAGE (widget);
  g_autofree char *name = NULL;

  if (self->grid == NULL)
    return;
  name = g_strdup_printf ("cluster-%u-alignment.%s", self->shown_cluster + 1, g_variant_get_string (param, NULL));
  ws_export_dialog_show (widget, _("Export the Alignment"), name, export_alignment_to, export_toast);
}

static void
export_coverage_action (GtkWidget  *widget,
                        const char *action_name,
                        GVariant   *param)
{
  g_autofree char *name = g_strdup_printf ("coverage.%s", g_variant_get_string (param, NULL));

  ws_export_dialog_show (widget, _("Export the Coverage Chart"), name, export_coverage_to, export_toast);
}

/* ------------------------------------------------------------------ */
/* GObject                                                              */

static void
ws_mining_page_dispose (GObject *object)
{
  WsMiningPage *self = WS_MINING_PAGE (object);

  g_cancellable_cancel (self->cancellable);
  g_cancellable_cancel (self->events_cancellable);
  g_cancellable_cancel (self->coverage_cancellable);
  g_clear_object (&self->coverage_cancellable);
  g_clear_pointer (&self->curves, curves_free);
  g_clear_object (&self->cancellable);
  g_clear_object (&self->events_cancellable);
  ws_progress_relay_cancel_pending (self->progress_relay);
  if (self->trace_list != NULL)
    gtk_list_box_bind_model (self->trace_list, NULL, NULL, NULL, NULL);

  gtk_widget_dispose_template (GTK_WIDGET (self), WS_TYPE_MINING_PAGE);

  g_clear_object (&self->settings);
  g_clear_object (&self->documents);
  g_clear_object (&self->session);
  g_clear_object (&self->selection);
  g_clear_object (&self->roots);
  g_clear_pointer (&self->result, result_unref);
  g_clear_pointer (&self->grid, ws_alignment_grid_unref);
  g_clear_pointer (&self->grid_patterns, g_free);
  g_clear_pointer (&self->unchecked, g_hash_table_unref);
  g_clear_object (&self->coverage);
  g_clear_pointer (&self->signature_index, g_array_unref);
  g_clear_pointer (&self->signatures, g_ptr_array_unref);
  g_clear_pointer (&self->signed_patterns, g_hash_table_unref);

  G_OBJECT_CLASS (ws_mining_page_parent_class)->dispose (object);
}

static void
ws_mining_page_finalize (GObject *object)
{
  WsMiningPage *self = WS_MINING_PAGE (object);

  g_clear_object (&self->progress_relay);
  g_free (self->status);

  G_OBJECT_CLASS (ws_mining_page_parent_class)->finalize (object);
}

static void
ws_mining_page_get_property (GObject    *object,
                             guint       prop_id,
                             GValue     *value,
                             GParamSpec *pspec)
{
  WsMiningPage *self = WS_MINING_PAGE (object);

  switch (prop_id)
    {
    case PROP_BUSY:
      g_value_set_boolean (value, self->busy);
      break;
    case PROP_STATUS:
      g_value_set_string (value, self->status);
      break;
    case PROP_COVERAGE_BUSY:
      g_value_set_boolean (value, ws_mining_page_get_coverage_busy (self));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
ws_mining_page_class_init (WsMiningPageClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = ws_mining_page_dispose;
  object_class->finalize = ws_mining_page_finalize;
  object_class->get_property = ws_mining_page_get_property;

  properties[PROP_BUSY] =
    g_param_spec_boolean ("busy", NULL, NULL, FALSE,
                          G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  properties[PROP_STATUS] =
    g_param_spec_string ("status", NULL, NULL, NULL,
                         G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  /**
   * WsMiningPage:coverage-busy:
   *
   * Whether the coverage curves of the marked signatures are being
   * computed (the chart and table are empty meanwhile).
   */
  properties[PROP_COVERAGE_BUSY] =
    g_param_spec_boolean ("coverage-busy", NULL, NULL, FALSE,
                          G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  /**
   * WsMiningPage::show-events:
   * @document: the trace to show
   * @search: its events that contain the pattern
   *
   * The user asked to see a pattern's events.
   */
  signals[SHOW_EVENTS] =
    g_signal_new ("show-events", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 2, WS_TYPE_DOCUMENT, WS_TYPE_STACK_SEARCH);
  /**
   * WsMiningPage::finished:
   *
   * A run ended (results, error or cancelled).
   */
  signals[FINISHED] =
    g_signal_new ("finished", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 0);

  g_type_ensure (WS_TYPE_ALIGNMENT_VIEW);
  g_type_ensure (WS_TYPE_COVERAGE_VIEW);

  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "miningpage");
  gtk_widget_class_set_template_from_resource (widget_class, "/io/github/waitscope/Waitscope/ws-mining-page.ui");
  gtk_widget_class_bind_template_child (widget_class, WsMiningPage, outer_paned);
  gtk_widget_class_bind_template_child (widget_class, WsMiningPage, settings_box);
  gtk_widget_class_bind_template_child (widget_class, WsMiningPage, coverage_busy);
  gtk_widget_class_bind_template_child (widget_class, WsMiningPage, settings_button);
  gtk_widget_class_bind_template_child (widget_class, WsMiningPage, trace_list);
  gtk_widget_class_bind_template_child (widget_class, WsMiningPage, scope_row);
  gtk_widget_class_bind_template_child (widget_class, WsMiningPage, critical_switch);
  gtk_widget_class_bind_template_child (widget_class, WsMiningPage, threads_row);
  gtk_widget_class_bind_template_child (widget_class, WsMiningPage, kind_row);
  gtk_widget_class_bind_template_child (widget_class, WsMiningPage, include_row);
  gtk_widget_class_bind_template_child (widget_class, WsMiningPage, exclude_row);
  gtk_widget_class_bind_template_child (widget_class, WsMiningPage, lambda_spin);
  gtk_widget_class_bind_template_child (widget_class, WsMiningPage, guideline_row);
  gtk_widget_class_bind_template_child (widget_class, WsMiningPage, share_spin);
  gtk_widget_class_bind_template_child (widget_class, WsMiningPage, delay_spin);
  gtk_widget_class_bind_template_child (widget_class, WsMiningPage, guideline_result_row);
  gtk_widget_class_bind_template_child (widget_class, WsMiningPage, threshold_spin);
  gtk_widget_class_bind_template_child (widget_class, WsMiningPage, results_stack);
  gtk_widget_class_bind_template_child (widget_class, WsMiningPage, running_page);
  gtk_widget_class_bind_template_child (widget_class, WsMiningPage, error_page);
  gtk_widget_class_bind_template_child (widget_class, WsMiningPage, progress_bar);
  gtk_widget_class_bind_template_child (widget_class, WsMiningPage, inner_paned);
  gtk_widget_class_bind_template_child (widget_class, WsMiningPage, summary_label);
  gtk_widget_class_bind_template_child (widget_class, WsMiningPage, rank_dropdown);
  gtk_widget_class_bind_template_child (widget_class, WsMiningPage, cluster_view);
  gtk_widget_class_bind_template_child (widget_class, WsMiningPage, detail_label);
  gtk_widget_class_bind_template_child (widget_class, WsMiningPage, detail_stack);
  gtk_widget_class_bind_template_child (widget_class, WsMiningPage, alignment_view);
  gtk_widget_class_bind_template_child (widget_class, WsMiningPage, coverage_view);
  gtk_widget_class_bind_template_child (widget_class, WsMiningPage, signature_list);
  gtk_widget_class_bind_template_child (widget_class, WsMiningPage, coverage_table);

  gtk_widget_class_install_action (widget_class, "mining.run", NULL, run_action);
  gtk_widget_class_install_action (widget_class, "mining.cancel", NULL, cancel_action);
  gtk_widget_class_install_action (widget_class, "mining.show-events", NULL, show_events_action);
  gtk_widget_class_install_action (widget_class, "mining.mark-signature", NULL, mark_signature_action);
  gtk_widget_class_install_action (widget_class, "mining.use-guideline", NULL, use_guideline_action);
  gtk_widget_class_install_action (widget_class, "mining.export-alignment", "s", export_alignment_action);
  gtk_widget_class_install_action (widget_class, "mining.export-coverage", "s", export_coverage_action);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Return, GDK_CONTROL_MASK, "mining.run", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Escape, 0, "mining.cancel", NULL);
}

/* The mining settings outlive the page: each widget is bound to its key
 * of the application's settings (restored now, saved on every change). */
static void
bind_settings (WsMiningPage *self)
{
  static const struct { const char *key; gsize offset; const char *property; } bindings[] = {
    { "mining-scope", G_STRUCT_OFFSET (WsMiningPage, scope_row), "selected" },
    { "mining-stack-kind", G_STRUCT_OFFSET (WsMiningPage, kind_row), "selected" },
    { "mining-must-match", G_STRUCT_OFFSET (WsMiningPage, include_row), "text" },
    { "mining-must-not-match", G_STRUCT_OFFSET (WsMiningPage, exclude_row), "text" },
    { "mining-threads", G_STRUCT_OFFSET (WsMiningPage, threads_row), "text" },
    { "mining-lambda-share", G_STRUCT_OFFSET (WsMiningPage, share_spin), "value" },
    { "mining-lambda-delay", G_STRUCT_OFFSET (WsMiningPage, delay_spin), "value" },
    { "mining-threshold", G_STRUCT_OFFSET (WsMiningPage, threshold_spin), "value" },
    { "mining-rank", G_STRUCT_OFFSET (WsMiningPage, rank_dropdown), "selected" },
  };
  GSettings *settings = ws_session_get_settings (self->session);

  if (settings == NULL || settings == self->settings)
    return;
  g_set_object (&self->settings, settings);
  for (guint i = 0; i < G_N_ELEMENTS (bindings); i++)
    g_settings_bind (settings, bindings[i].key, G_STRUCT_MEMBER (GObject *, self, bindings[i].offset),
                     bindings[i].property, G_SETTINGS_BIND_DEFAULT);
}

static void
ws_mining_page_init (WsMiningPage *self)
{
  g_autoptr(GtkStringList) scopes = NULL;
  GtkTreeListModel *tree;
  GtkTreeListRowSorter *sorter;
  GtkSortListModel *sorted;

  self->progress_relay = ws_progress_relay_new (progress_published, self, NULL);
  self->unchecked = g_hash_table_new (NULL, NULL);
  self->shown_cluster = G_MAXUINT;
  self->signatures = g_ptr_array_new_with_free_func (signature_free);
  self->signed_patterns = g_hash_table_new (NULL, NULL);
  gtk_widget_init_template (GTK_WIDGET (self));

  scopes = gtk_string_list_new ((const char *[]) {
    _("Whole traces"),
    _("Scenario instances"),
    _("Wait graphs of scenario instances"),
    _("Wait graph of the timeline selection"),
    NULL });
  adw_combo_row_set_model (self->scope_row, G_LIST_MODEL (scopes));
  adw_combo_row_set_use_subtitle (self->scope_row, TRUE);
  g_signal_connect_swapped (self->scope_row, "notify::selected", G_CALLBACK (scope_changed_cb), self);
  scope_changed_cb (self);

  add_column (self, COL_RANK, C_("cluster table", "#"), "rank", G_TYPE_UINT, FALSE);
  add_column (self, COL_LABEL, _("Pattern"), "label", G_TYPE_STRING, TRUE);
  add_column (self, COL_TOTAL, _("Total"), "total-cost", G_TYPE_INT64, FALSE);
  add_column (self, COL_STREAMS, _("Traces"), "n-streams", G_TYPE_UINT, FALSE);
  add_column (self, COL_EVENTS, _("Events"), "n-events", G_TYPE_UINT64, FALSE);
  add_column (self, COL_AVERAGE, _("Average"), "average-cost", G_TYPE_DOUBLE, FALSE);

  self->roots = g_list_store_new (WS_TYPE_MINING_ITEM);
  tree = gtk_tree_list_model_new (G_LIST_MODEL (g_object_ref (self->roots)), FALSE, FALSE, create_children, NULL, NULL);
  sorter = gtk_tree_list_row_sorter_new (g_object_ref (gtk_column_view_get_sorter (self->cluster_view)));
  sorted = gtk_sort_list_model_new (G_LIST_MODEL (tree), GTK_SORTER (sorter));
  self->selection = gtk_single_selection_new (G_LIST_MODEL (sorted));
  gtk_single_selection_set_autoselect (self->selection, TRUE);
  gtk_column_view_set_model (self->cluster_view, GTK_SELECTION_MODEL (self->selection));
  g_signal_connect_swapped (self->selection, "notify::selected-item", G_CALLBACK (selection_changed_cb), self);

  g_object_bind_property (self->settings_button, "active", self->settings_box, "visible", G_BINDING_SYNC_CREATE);
  g_signal_connect_swapped (self->alignment_view, "pattern-activated", G_CALLBACK (alignment_pattern_activated_cb), self);
  g_signal_connect_swapped (self->rank_dropdown, "notify::selected", G_CALLBACK (rank_changed_cb), self);
  g_signal_connect_swapped (self->share_spin, "value-changed", G_CALLBACK (update_guideline), self);
  g_signal_connect_swapped (self->delay_spin, "value-changed", G_CALLBACK (update_guideline), self);

  update_guideline (self);
  update_actions (self);
}

GtkWidget *
ws_mining_page_new (void)
{
  return g_object_new (WS_TYPE_MINING_PAGE, NULL);
}

/**
 * ws_mining_page_set_session:
 * @session: the window's shared state: the traces offered for mining are
 *   its documents, the settings restore and keep the page's choices, and
 *   its history store weights the similarity
 */
void
ws_mining_page_set_session (WsMiningPage *self,
                            WsSession    *session)
{
  GListModel *documents;

  g_return_if_fail (WS_IS_MINING_PAGE (self));
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
  update_actions (self);
}

void
ws_mining_page_set_scope (WsMiningPage  *self,
                          WsMiningScope  scope)
{
  g_return_if_fail (WS_IS_MINING_PAGE (self));
  g_return_if_fail (scope <= WS_MINING_SCOPE_SELECTION_GRAPH);
  adw_combo_row_set_selected (self->scope_row, scope);
}

/* The similarity at which patterns share a cluster. */
void
ws_mining_page_set_threshold (WsMiningPage *self,
                              double        threshold)
{
  g_return_if_fail (WS_IS_MINING_PAGE (self));
  gtk_spin_button_set_value (self->threshold_spin, threshold);
}

/**
 * ws_mining_page_set_filters:
 * @must: (nullable): a regular expression one frame of a mined stack must
 *   match ("function (module)")
 * @must_not: (nullable): one that no frame may match
 */
void
ws_mining_page_set_filters (WsMiningPage *self,
                            const char   *must,
                            const char   *must_not)
{
  g_return_if_fail (WS_IS_MINING_PAGE (self));
  gtk_editable_set_text (GTK_EDITABLE (self->include_row), must ? must : "");
  gtk_editable_set_text (GTK_EDITABLE (self->exclude_row), must_not ? must_not : "");
}

/**
 * ws_mining_page_set_guideline:
 * @share_of_traces: 0…1
 * @delay_per_trace: ns
 *
 * Fills the λ guideline helper (its "Use" button sets λ from it).
 */
void
ws_mining_page_set_guideline (WsMiningPage *self,
                              double        share_of_traces,
                              gint64        delay_per_trace)
{
  g_return_if_fail (WS_IS_MINING_PAGE (self));
  gtk_spin_button_set_value (self->share_spin, share_of_traces * 100);
  gtk_spin_button_set_value (self->delay_spin, delay_per_trace / 1e6);
}

/* λ in ns. */
void
ws_mining_page_set_lambda (WsMiningPage *self,
                           gint64        lambda)
{
  g_return_if_fail (WS_IS_MINING_PAGE (self));
  gtk_spin_button_set_value (self->lambda_spin, lambda / 1e6);
}

gint64
ws_mining_page_get_lambda (WsMiningPage *self)
{
  g_return_val_if_fail (WS_IS_MINING_PAGE (self), 0);
  return (gint64) (gtk_spin_button_get_value (self->lambda_spin) * 1e6 + 0.5);
}

gboolean
ws_mining_page_get_busy (WsMiningPage *self)
{
  g_return_val_if_fail (WS_IS_MINING_PAGE (self), FALSE);
  return self->busy;
}

/**
 * ws_mining_page_get_coverage_busy:
 *
 * Returns: whether the coverage chart's curves are still being computed
 */
gboolean
ws_mining_page_get_coverage_busy (WsMiningPage *self)
{
  g_return_val_if_fail (WS_IS_MINING_PAGE (self), FALSE);
  return self->coverage_busy != NULL && gtk_widget_get_visible (self->coverage_busy);
}

/**
 * ws_mining_page_get_status:
 * Returns: (nullable): the last progress message, summary or error
 */
const char *
ws_mining_page_get_status (WsMiningPage *self)
{
  g_return_val_if_fail (WS_IS_MINING_PAGE (self), NULL);
  return self->status;
}

/**
 * ws_mining_page_get_cluster_set:
 * Returns: (transfer none) (nullable): the last run's clusters, ranked
 */
WsClusterSet *
ws_mining_page_get_cluster_set (WsMiningPage *self)
{
  g_return_val_if_fail (WS_IS_MINING_PAGE (self), NULL);
  return self->result ? self->result->clusters : NULL;
}

GtkColumnView *
ws_mining_page_get_cluster_view (WsMiningPage *self)
{
  g_return_val_if_fail (WS_IS_MINING_PAGE (self), NULL);
  return self->cluster_view;
}

WsAlignmentView *
ws_mining_page_get_alignment_view (WsMiningPage *self)
{
  g_return_val_if_fail (WS_IS_MINING_PAGE (self), NULL);
  return self->alignment_view;
}

WsCoverageView *
ws_mining_page_get_coverage_view (WsMiningPage *self)
{
  g_return_val_if_fail (WS_IS_MINING_PAGE (self), NULL);
  return self->coverage_view;
}

/* Selects the cluster of @rank (1-based) in the table as it is sorted. */
void
ws_mining_page_select_cluster (WsMiningPage *self,
                               guint         rank)
{
  GListModel *model;

  g_return_if_fail (WS_IS_MINING_PAGE (self));

  model = G_LIST_MODEL (self->selection);
  for (guint i = 0; i < g_list_model_get_n_items (model); i++)
    {
      g_autoptr(GtkTreeListRow) row = g_list_model_get_item (model, i);
      WsMiningItem *item = row_item (row);

      if (ws_mining_item_get_kind (item) == WS_MINING_ITEM_CLUSTER && ws_mining_item_get_rank (item) == rank)
        {
          gtk_tree_list_row_set_expanded (row, TRUE);
          gtk_single_selection_set_selected (self->selection, i);
          return;
        }
    }
}

/**
 * ws_mining_page_show_detail:
 * @name: "alignment" or "coverage"
 */
void
ws_mining_page_show_detail (WsMiningPage *self,
                            const char   *name)
{
  g_return_if_fail (WS_IS_MINING_PAGE (self));
  gtk_stack_set_visible_child_name (self->detail_stack, name);
}
