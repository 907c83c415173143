/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The Mining panel, made of parts with one job each: the form (what to
 * mine, WsMiningForm), the run (WsMiningRequest: the core's
 * ws_mining_run() in a WsWorker, which drops a superseded run's result),
 * the pattern list (ws-cluster-table), the alignment of the selected
 * cluster (WsClusterAlignment), "Show Events" (WsPatternEvents, in a
 * worker of its own) and the signatures with their coverage
 * (WsSignaturePanel).  The page owns the run shown and the selection and
 * ties the parts together; what the user does with the selection (Show
 * Events, Mark as Signature, the figures' export) is in
 * ws-mining-page-actions.c.
 */
#include "config.h"

#include <adwaita.h>
#include <glib/gi18n.h>
#include <string.h>

#include "ws-cluster-alignment.h"
#include "ws-cluster-table.h"
#include "ws-error.h"
#include "ws-history-store.h"
#include "ws-mining-request.h"
#include "ws-mining-form.h"
#include "ws-mining-item.h"
#include "ws-mining-words.h"
#include "ws-mining-page.h"
#include "ws-mining-pin.h"
#include "ws-mining-page-private.h"
#include "ws-progress-relay.h"
#include "ws-signature-panel.h"
#include "ws-worker.h"
#include "ws-stack-db.h"
#include "ws-time-format.h"

G_DEFINE_FINAL_TYPE (WsMiningPage, ws_mining_page, WS_TYPE_PAGE)

static void session_changed (WsPage    *page,
                             WsSession *old_session,
                             WsSession *session);

enum {
  PROP_0,
  PROP_BUSY,
  PROP_STATUS,
  PROP_COVERAGE_BUSY,
  PROP_CLUSTER_SET,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

enum {
  SHOW_EVENTS,
  FINISHED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

void
_ws_mining_page_emit_show_events (WsMiningPage   *self,
                                  WsDocument     *document,
                                  WsStackSearch  *search)
{
  g_signal_emit (self, signals[SHOW_EVENTS], 0, document, search);
}

void
_ws_mining_page_set_status (WsMiningPage *self,
                            const char   *status)
{
  if (g_strcmp0 (status, self->status) == 0)
    return;
  g_free (self->status);
  self->status = g_strdup (status);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_STATUS]);
}

void
_ws_mining_page_toast (WsMiningPage *self,
                       const char   *text)
{
  GtkWidget *overlay = gtk_widget_get_ancestor (GTK_WIDGET (self), ADW_TYPE_TOAST_OVERLAY);

  _ws_mining_page_set_status (self, text);
  if (overlay != NULL)
    adw_toast_overlay_add_toast (ADW_TOAST_OVERLAY (overlay), adw_toast_new (text));
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
      _ws_mining_page_set_status (self, message);
    }
}

/* ------------------------------------------------------------------ */
/* The worker                                                           */

/* ------------------------------------------------------------------ */
/* The table                                                            */

static void
build_model (WsMiningPage *self)
{
  Result *r = self->result;
  g_autoptr(GPtrArray) items = ws_cluster_table_new_items (r->clusters, r->similarity, self->signed_patterns);

  ws_cluster_table_show_discriminative (self->cluster_view, r->run->discriminative);
  g_list_store_splice (self->roots, 0, g_list_model_get_n_items (G_LIST_MODEL (self->roots)),
                       items->pdata, items->len);
}

/* ------------------------------------------------------------------ */
/* Selection: the alignment of a cluster                                */

WsMiningItem *
_ws_mining_page_get_selected_item (WsMiningPage *self)
{
  GtkTreeListRow *row;

  if (self->selection == NULL)
    return NULL;
  row = gtk_single_selection_get_selected_item (self->selection);
  return row ? ws_cluster_table_row_item (row) : NULL;
}

static void
update_detail (WsMiningPage *self)
{
  ws_cluster_alignment_show (self->alignment, self->result ? self->result->clusters : NULL,
                             self->result ? self->result->similarity : NULL, _ws_mining_page_get_selected_item (self));
  _ws_mining_page_update_actions (self);
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
  guint pattern = ws_cluster_alignment_get_pattern (self->alignment, column);
  guint shown = ws_cluster_alignment_get_cluster (self->alignment);

  if (pattern == G_MAXUINT)
    return;

  /* Select that pattern's row, expanding its cluster if needed. */
  for (guint i = 0; i < g_list_model_get_n_items (model); i++)
    {
      g_autoptr(GtkTreeListRow) row = g_list_model_get_item (model, i);
      WsMiningItem *item = ws_cluster_table_row_item (row);

      if (ws_mining_item_get_cluster (item) != shown)
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
/* A fleet: its classes and its ranking                                 */

/* The traces a run mines, in its order: the digest's, else the ticked
 * documents'.  @paths key their classes, @names label their chips. */
static void
mined_traces (WsMiningPage *self,
              GPtrArray    *chosen,
              GPtrArray    *paths,
              GPtrArray    *names)
{
  for (guint i = 0; self->digest != NULL && i < ws_digest_get_n_traces (self->digest); i++)
    {
      const WsDigestTrace *t = ws_digest_get_trace (self->digest, i);

      g_ptr_array_add (paths, t->path);
      g_ptr_array_add (names, t->name);
    }
  for (guint i = 0; self->digest == NULL && chosen != NULL && i < chosen->len; i++)
    {
      WsTrace *trace = ws_document_get_trace (g_ptr_array_index (chosen, i));

      g_ptr_array_add (paths, (gpointer) ws_trace_get_path (trace));
      g_ptr_array_add (names, (gpointer) ws_trace_get_name (trace));
    }
}

/* The chips show the traces the page would mine now. */
static void
refresh_chips (WsMiningPage *self)
{
  g_autoptr(GPtrArray) chosen = self->digest == NULL ? ws_mining_form_dup_chosen (self->form) : NULL;
  g_autoptr(GPtrArray) paths = g_ptr_array_new ();
  g_autoptr(GPtrArray) names = g_ptr_array_new ();

  mined_traces (self, chosen, paths, names);
  ws_run_class_chips_set_traces (self->class_chips, (const char * const *) paths->pdata,
                                 (const char * const *) names->pdata, paths->len);
}

/* Over two or more traces: how the fleet is ranked and why.  Without
 * classes, the core's sentence (the CLI prints it under its header) and
 * how to give classes here; with them, which order is shown. */
static void
show_fleet (WsMiningPage *self)
{
  WsMiningResult *run = self->result->run;
  gboolean slow = self->result->rank == WS_CLUSTER_RANK_DISCRIMINATIVE;
  g_autofree char *note = NULL;

  gtk_widget_set_visible (self->fleet_box, run->n_traces > 1);
  /* The StackMine metric orders by cost only. */
  gtk_widget_set_sensitive (GTK_WIDGET (self->rank_dropdown), !slow);
  gtk_label_set_text (self->rank_label, run->n_traces > 1 ? _("Cost by") : _("Rank by"));
  gtk_widget_set_sensitive (GTK_WIDGET (self->rank_slow_button), run->discriminative);
  if (!run->discriminative)
    {
      g_autofree char *unclassed = ws_mining_dup_unclassed_note (run->n_traces);

      gtk_widget_set_tooltip_text (GTK_WIDGET (self->rank_slow_button),
                                   _("Mark slow and fast traces first (Trace Classes)"));
      /* Translators: after "24 traces, no slow or fast class: ranked by
       * cost over all of them.": how the window takes classes */
      note = unclassed != NULL ? g_strdup_printf ("%s %s", unclassed,
                                                  _("To rank what slow traces have more of than fast ones, mark "
                                                    "traces slow or fast, or load a classes file, under Trace "
                                                    "Classes."))
                               : NULL;
    }
  else
    {
      guint n_slow = 0, n_fast = 0;
      g_autofree char *classes = NULL;

      gtk_widget_set_tooltip_text (GTK_WIDGET (self->rank_slow_button),
                                   _("Mean cost per slow trace minus mean cost per fast trace (the discriminative "
                                     "score, as “waitscope-cli mine --rank discriminative”)"));
      for (guint i = 0; self->result->classes != NULL && i < self->result->classes->len; i++)
        {
          WsRunClass klass = g_array_index (self->result->classes, WsRunClass, i);

          n_slow += klass == WS_RUN_CLASS_SLOW;
          n_fast += klass == WS_RUN_CLASS_FAST;
        }
      /* Translators: "6 slow and 18 fast traces", then the order shown */
      classes = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u slow and %u fast trace", "%u slow and %u fast traces",
                                              n_slow + n_fast), n_slow, n_fast);
      note = g_strdup_printf (slow ? _("%s: ranked by what slow traces have more of (mean cost per slow trace − "
                                       "per fast trace, the “Slow − fast” column).")
                                   : _("%s: ranked by cost over all of them; “Slow − fast” says what slow traces "
                                       "have more of."),
                              classes);
    }
  gtk_label_set_text (self->fleet_note_label, note != NULL ? note : "");
  gtk_widget_set_visible (GTK_WIDGET (self->fleet_note_label), note != NULL);
  self->syncing_rank = TRUE;
  gtk_toggle_button_set_active (slow ? self->rank_slow_button : self->rank_cost_button, TRUE);
  self->syncing_rank = FALSE;
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
  g_autofree char *summary = NULL;

  build_model (self);
  show_fleet (self);

  if (n_patterns == 0)
    {
      g_autofree char *desc = NULL;

      adw_status_page_set_icon_name (self->error_page, "edit-find-symbolic");
      adw_status_page_set_title (self->error_page, _("No Costly Patterns"));
      if (ws_stack_db_get_n_entries (r->db) == 0)
        {
          /* Say which scope and filters came out empty, and what to do. */
          g_autofree char *scope = ws_mining_form_dup_scope_words (self->form);
          WsMiningScope chosen = ws_mining_form_get_scope (self->form);
          guint n_instances = 0;

          for (guint t = 0; r->traces != NULL && t < r->traces->len; t++)
            n_instances += ws_trace_get_n_scenario_instances (g_ptr_array_index (r->traces, t));
          if ((chosen == WS_MINING_SCOPE_INSTANCES || chosen == WS_MINING_SCOPE_INSTANCE_GRAPHS) && n_instances == 0)
            /* Translators: %s is the scope and filters in words */
            desc = g_strdup_printf (_("Nothing is in the area of interest (%s): the traces have no scenario "
                                      "instances. Choose the scope “Waits that delayed another thread” or "
                                      "“Whole traces”, or define a scenario."), scope);
          else
            /* Translators: %s is the scope and filters in words */
            desc = g_strdup_printf (_("Nothing is in the area of interest (%s): widen the scope or loosen "
                                      "the filters."), scope);
        }
      else
        /* Translators: the stacks' total cost, then λ */
        desc = g_strdup_printf (_("The stacks in the area of interest cost %s in all; no pattern reaches λ = %s. Lower λ to see more."),
                                total, lambda);
      adw_status_page_set_description (self->error_page, desc);
      gtk_stack_set_visible_child_name (self->results_stack, "error");
      _ws_mining_page_set_status (self, _("No costly patterns"));
      return;
    }

  /* In words, from core (λ named in the tooltip). */
  summary = ws_mining_dup_summary (n_patterns, n_clusters, r->lambda, ws_stack_db_get_total_cost (r->db));
  gtk_label_set_text (self->summary_label, summary);
  {
    guint n_stacks = ws_stack_db_get_n_entries (r->db);
    g_autofree char *stacks = g_strdup_printf (ngettext ("%u stack", "%u stacks", n_stacks), n_stacks);
    /* Translators: the first %s is "120 stacks" */
    g_autofree char *tip = g_strdup_printf (ngettext ("%s from %u trace, mined and clustered in %.2f s. Function weights from %s.",
                                                      "%s from %u traces, mined and clustered in %.2f s. Function weights from %s.",
                                                      r->run->n_traces),
                                            stacks, r->run->n_traces, r->elapsed_us / 1e6,
                                            r->history_used ? _("the history of every imported trace")
                                                            : _("these traces only (no history store)"));
    g_autofree char *terms = ws_mining_dup_terms (r->lambda);
    g_autofree char *both = g_strdup_printf ("%s\n%s", terms, tip);

    gtk_widget_set_tooltip_text (GTK_WIDGET (self->summary_label), both);
  }
  gtk_stack_set_visible_child_name (self->results_stack, "results");
  _ws_mining_page_set_status (self, summary);
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
  _ws_mining_page_update_actions (self);
}

static void
mine_done (gpointer  owner,
           gpointer  shown,
           GError   *error,
           gpointer  job)
{
  WsMiningPage *self = WS_MINING_PAGE (owner);
  Result *result = shown;

  set_busy (self, FALSE);
  if (result == NULL)
    {
      if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED) ||
          g_error_matches (error, WS_ERROR, WS_ERROR_CANCELLED))
        {
          gtk_stack_set_visible_child_name (self->results_stack, self->result ? "results" : "empty");
          _ws_mining_page_toast (self, _("Mining cancelled"));
        }
      else
        {
          adw_status_page_set_icon_name (self->error_page, "dialog-warning-symbolic");
          adw_status_page_set_title (self->error_page, _("Could Not Mine"));
          adw_status_page_set_description (self->error_page, error->message);
          gtk_stack_set_visible_child_name (self->results_stack, "error");
          _ws_mining_page_set_status (self, error->message);
        }
      g_signal_emit (self, signals[FINISHED], 0);
      return;
    }

  g_clear_pointer (&self->result, result_unref);
  self->result = result;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_CLUSTER_SET]);
  g_hash_table_remove_all (self->signed_patterns);
  show_results (self);
  ws_signature_panel_set_db (self->signature_panel, result->db);
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
ws_mining_page_run_scope (WsMiningPage  *self,
                          WsMiningScope  scope)
{
  g_return_if_fail (WS_IS_MINING_PAGE (self));

  /* A run under way is the user's: it is not replaced. */
  if (self->busy)
    return;
  ws_mining_form_set_scope (self->form, scope);
  ws_mining_page_run (self);
}

void
ws_mining_page_run (WsMiningPage *self)
{
  g_autoptr(GPtrArray) chosen = NULL;
  WsMiningRequest *job;

  g_return_if_fail (WS_IS_MINING_PAGE (self));

  /* A fleet opened as a digest is mined whole, with no document. */
  chosen = self->digest != NULL ? g_ptr_array_new () : ws_mining_form_dup_chosen (self->form);
  if (chosen->len == 0 && self->digest == NULL)
    {
      _ws_mining_page_toast (self, _("Open a trace and tick it to mine it"));
      return;
    }

  job = ws_mining_request_new (self->form, chosen, ws_page_get_session (WS_PAGE (self)), gtk_drop_down_get_selected (self->rank_dropdown),
                               self->progress_relay);
  ws_mining_request_set_digest (job, self->digest);
  {
    /* The session's classes of the traces mined: with a slow and a fast
     * one the run scores what slow traces have more of, and ranks by it
     * unless the user chose cost. */
    WsSession *session = ws_page_get_session (WS_PAGE (self));
    g_autoptr(GPtrArray) paths = g_ptr_array_new ();
    g_autoptr(GPtrArray) names = g_ptr_array_new ();
    g_autoptr(GArray) classes = NULL;
    guint n_slow = 0, n_fast = 0;

    mined_traces (self, chosen, paths, names);
    if (session != NULL)
      classes = ws_run_classes_dup_for (ws_session_get_run_classes (session), (const char * const *) paths->pdata,
                                        paths->len, &n_slow, &n_fast);
    if (n_slow > 0 && n_fast > 0)
      ws_mining_request_set_classes (job, classes,
                                     !self->rank_by_cost ? WS_CLUSTER_RANK_DISCRIMINATIVE : gtk_drop_down_get_selected (self->rank_dropdown));
  }

  gtk_progress_bar_set_fraction (self->progress_bar, 0);
  gtk_progress_bar_set_text (self->progress_bar, _("Starting…"));
  {
    guint n = self->digest != NULL ? ws_digest_get_n_traces (self->digest) : chosen->len;
    g_autofree char *title = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "Mining %u Trace…", "Mining %u Traces…",
                                                           n), n);
    adw_status_page_set_title (self->running_page, title);
  }
  gtk_stack_set_visible_child_name (self->results_stack, "running");
  set_busy (self, TRUE);
  _ws_mining_page_set_status (self, _("Mining…"));

  ws_worker_run (self->worker, self, job, (GDestroyNotify) ws_mining_request_free, ws_mining_request_run_in_thread,
                 mine_done);
}

/**
 * ws_mining_page_set_digest:
 * @digest: (nullable): a fleet opened as a digest; %NULL: back to the
 *   open traces
 *
 * From now on the page mines @digest's traces (ws_mining_run_digest(), as
 * `waitscope-cli mine` over it) rather than the ticked traces, and mines
 * it at once.
 */
void
ws_mining_page_set_digest (WsMiningPage *self,
                           WsDigest     *digest)
{
  g_return_if_fail (WS_IS_MINING_PAGE (self));

  g_clear_pointer (&self->digest, ws_digest_unref);
  self->digest = digest ? ws_digest_ref (digest) : NULL;
  refresh_chips (self);
  _ws_mining_page_update_actions (self);
  if (digest != NULL)
    {
      ws_mining_page_cancel (self);
      set_busy (self, FALSE);
      ws_mining_page_run (self);
    }
}

/**
 * ws_mining_page_set_rank:
 *
 * Ranks the clusters by @rank, as a reopened pin was ranked: a cost
 * metric is the results' drop-down (and "Rank by: Cost" over a fleet with
 * classes), %WS_CLUSTER_RANK_DISCRIMINATIVE "What slow traces have more
 * of".  The next run ranks so.
 */
void
ws_mining_page_set_rank (WsMiningPage  *self,
                         WsClusterRank  rank)
{
  g_return_if_fail (WS_IS_MINING_PAGE (self));
  self->rank_by_cost = rank != WS_CLUSTER_RANK_DISCRIMINATIVE;
  if (rank != WS_CLUSTER_RANK_DISCRIMINATIVE)
    gtk_drop_down_set_selected (self->rank_dropdown, MIN ((guint) rank, WS_CLUSTER_RANK_AVERAGE));
}

WsClusterRank
ws_mining_page_get_rank (WsMiningPage *self)
{
  g_return_val_if_fail (WS_IS_MINING_PAGE (self), WS_CLUSTER_RANK_TOTAL);
  return gtk_drop_down_get_selected (self->rank_dropdown);
}

void
ws_mining_page_cancel (WsMiningPage *self)
{
  g_return_if_fail (WS_IS_MINING_PAGE (self));
  ws_worker_cancel (self->worker);
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
  if (self->result == NULL || self->busy
      || self->result->rank == WS_CLUSTER_RANK_DISCRIMINATIVE)
    return;
  ws_cluster_set_rank (self->result->clusters, gtk_drop_down_get_selected (self->rank_dropdown));
  show_results (self);
}

/* "Rank by: Cost | What slow traces have more of": the ranking by the
 * discriminative score takes λ's guideline over the slow traces only
 * (ws_mining_run()), so the fleet is mined again, as the CLI would. */
static void
fleet_rank_toggled_cb (WsMiningPage    *self,
                       GtkToggleButton *button)
{
  if (self->syncing_rank || !gtk_toggle_button_get_active (button))
    return;
  self->rank_by_cost = button == self->rank_cost_button;
  if (self->result != NULL && !self->busy)
    ws_mining_page_run (self);
}

/* Classes given, changed or loaded (here or on the Contrast page): the
 * fleet shown is ranked again by them. */
static void
run_classes_changed_cb (WsMiningPage *self)
{
  if (self->result != NULL && self->result->run->n_traces > 1 && !self->busy)
    ws_mining_page_run (self);
}

/* The classes popover opens on the traces the page would mine now. */
static void
classes_popover_shown_cb (WsMiningPage *self)
{
  refresh_chips (self);
}

/* ------------------------------------------------------------------ */
/* GObject                                                              */

static void
ws_mining_page_dispose (GObject *object)
{
  g_clear_pointer (&WS_MINING_PAGE (object)->digest, ws_digest_unref);
  WsMiningPage *self = WS_MINING_PAGE (object);

  if (self->worker != NULL)
    ws_worker_drop (self->worker);
  g_clear_object (&self->worker);
  if (self->events_worker != NULL)
    ws_worker_drop (self->events_worker);
  g_clear_object (&self->events_worker);
  ws_progress_relay_cancel_pending (self->progress_relay);
  gtk_widget_dispose_template (GTK_WIDGET (self), WS_TYPE_MINING_PAGE);

  g_clear_object (&self->selection);
  g_clear_object (&self->roots);
  g_clear_pointer (&self->result, result_unref);
  g_clear_object (&self->alignment);
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
    case PROP_CLUSTER_SET:
      g_value_set_boxed (value, self->result ? self->result->clusters : NULL);
      break;
    case PROP_COVERAGE_BUSY:
      g_value_set_boolean (value, ws_signature_panel_get_busy (self->signature_panel));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
ws_mining_page_class_init (WsMiningPageClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  WsPageClass *page_class = WS_PAGE_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  page_class->session_changed = session_changed;
  ws_mining_pin_class_init (page_class);
  ws_page_class_set_title (page_class, N_("Mining"));
  ws_page_class_set_icon_name (page_class, "system-search-symbolic");
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
  /**
   * WsMiningPage:cluster-set:
   *
   * The last finished run's clusters, ranked (a cancelled or failed run
   * keeps the one before).
   */
  properties[PROP_CLUSTER_SET] =
    g_param_spec_boxed ("cluster-set", NULL, NULL, WS_TYPE_CLUSTER_SET,
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
  g_type_ensure (WS_TYPE_SIGNATURE_PANEL);
  g_type_ensure (WS_TYPE_MINING_FORM);
  g_type_ensure (WS_TYPE_RUN_CLASS_CHIPS);

  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "miningpage");
  gtk_widget_class_set_template_from_resource (widget_class, "/io/github/waitscope/Waitscope/ws-mining-page.ui");
  gtk_widget_class_bind_template_child (widget_class, WsMiningPage, outer_paned);
  gtk_widget_class_bind_template_child (widget_class, WsMiningPage, form);
  gtk_widget_class_bind_template_child (widget_class, WsMiningPage, settings_button);
  gtk_widget_class_bind_template_child (widget_class, WsMiningPage, results_stack);
  gtk_widget_class_bind_template_child (widget_class, WsMiningPage, running_page);
  gtk_widget_class_bind_template_child (widget_class, WsMiningPage, error_page);
  gtk_widget_class_bind_template_child (widget_class, WsMiningPage, progress_bar);
  gtk_widget_class_bind_template_child (widget_class, WsMiningPage, inner_paned);
  gtk_widget_class_bind_template_child (widget_class, WsMiningPage, summary_label);
  gtk_widget_class_bind_template_child (widget_class, WsMiningPage, rank_dropdown);
  gtk_widget_class_bind_template_child (widget_class, WsMiningPage, rank_label);
  gtk_widget_class_bind_template_child (widget_class, WsMiningPage, fleet_box);
  gtk_widget_class_bind_template_child (widget_class, WsMiningPage, rank_cost_button);
  gtk_widget_class_bind_template_child (widget_class, WsMiningPage, rank_slow_button);
  gtk_widget_class_bind_template_child (widget_class, WsMiningPage, fleet_note_label);
  gtk_widget_class_bind_template_child (widget_class, WsMiningPage, classes_button);
  gtk_widget_class_bind_template_child (widget_class, WsMiningPage, class_chips);
  gtk_widget_class_bind_template_child (widget_class, WsMiningPage, cluster_view);
  gtk_widget_class_bind_template_child (widget_class, WsMiningPage, detail_label);
  gtk_widget_class_bind_template_child (widget_class, WsMiningPage, detail_stack);
  gtk_widget_class_bind_template_child (widget_class, WsMiningPage, alignment_view);
  gtk_widget_class_bind_template_child (widget_class, WsMiningPage, signature_panel);

  gtk_widget_class_install_action (widget_class, "mining.run", NULL, run_action);
  gtk_widget_class_install_action (widget_class, "mining.cancel", NULL, cancel_action);
  _ws_mining_page_class_actions_init (widget_class);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Return, GDK_CONTROL_MASK, "mining.run", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Escape, 0, "mining.cancel", NULL);
}

static void
coverage_busy_cb (WsMiningPage *self)
{
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_COVERAGE_BUSY]);
}

static void
ws_mining_page_init (WsMiningPage *self)
{
  self->progress_relay = ws_progress_relay_new_for_owner (self, progress_published);
  self->signed_patterns = g_hash_table_new (NULL, NULL);
  self->worker = ws_worker_new ();
  self->events_worker = ws_worker_new ();
  gtk_widget_init_template (GTK_WIDGET (self));
  self->alignment = ws_cluster_alignment_new (self->alignment_view, self->detail_label);
  g_signal_connect_swapped (self->signature_panel, "notify::busy", G_CALLBACK (coverage_busy_cb), self);
  g_signal_connect_swapped (self->signature_panel, "changed", G_CALLBACK (_ws_mining_page_update_actions), self);

  self->roots = g_list_store_new (WS_TYPE_MINING_ITEM);
  self->selection = ws_cluster_table_setup (self->cluster_view, G_LIST_MODEL (self->roots));
  g_signal_connect_swapped (self->selection, "notify::selected-item", G_CALLBACK (selection_changed_cb), self);

  g_object_bind_property (self->settings_button, "active", self->form, "visible", G_BINDING_SYNC_CREATE);
  g_signal_connect_swapped (self->form, "changed", G_CALLBACK (_ws_mining_page_update_actions), self);
  g_signal_connect_swapped (self->alignment_view, "pattern-activated", G_CALLBACK (alignment_pattern_activated_cb), self);
  g_signal_connect_swapped (self->rank_dropdown, "notify::selected", G_CALLBACK (rank_changed_cb), self);
  g_signal_connect_swapped (self->rank_cost_button, "toggled", G_CALLBACK (fleet_rank_toggled_cb), self);
  g_signal_connect_swapped (self->rank_slow_button, "toggled", G_CALLBACK (fleet_rank_toggled_cb), self);
  g_signal_connect_swapped (gtk_menu_button_get_popover (self->classes_button), "show",
                            G_CALLBACK (classes_popover_shown_cb), self);

  _ws_mining_page_update_actions (self);
}

GtkWidget *
ws_mining_page_new (void)
{
  return g_object_new (WS_TYPE_MINING_PAGE, NULL);
}

/**
 * session_changed:
 * @session: the window's shared state: the traces offered for mining are
 *   its documents, the settings restore and keep the page's choices, and
 *   its history store weights the similarity
 */
static void
session_changed (WsPage    *page,
                 WsSession *old_session,
                 WsSession *session)
{
  WsMiningPage *self = WS_MINING_PAGE (page);

  GSettings *settings;

  g_return_if_fail (WS_IS_MINING_PAGE (self));
  g_return_if_fail (WS_IS_SESSION (session));

  /* The rank is the results' choice; the form keeps its own. */
  if ((settings = ws_session_get_settings (session)) != NULL)
    g_settings_bind (settings, "mining-rank", self->rank_dropdown, "selected", G_SETTINGS_BIND_DEFAULT);
  ws_mining_form_set_session (self->form, session);
  /* The classes are the session's: one set for this page and Contrast. */
  if (old_session != NULL)
    g_signal_handlers_disconnect_by_func (ws_session_get_run_classes (old_session), run_classes_changed_cb, self);
  g_signal_connect_object (ws_session_get_run_classes (session), "changed", G_CALLBACK (run_classes_changed_cb), self,
                           G_CONNECT_SWAPPED);
  ws_run_class_chips_set_classes (self->class_chips, ws_session_get_run_classes (session));
  _ws_mining_page_update_actions (self);
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
      WsMiningItem *item = ws_cluster_table_row_item (row);

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

/* The detail shown: "alignment" or "coverage". */
const char *
ws_mining_page_get_detail (WsMiningPage *self)
{
  g_return_val_if_fail (WS_IS_MINING_PAGE (self), NULL);
  return gtk_stack_get_visible_child_name (self->detail_stack);
}

/* For coverage pins (ws-mining-pin.c). */
WsSignaturePanel *
ws_mining_page_get_signature_panel (WsMiningPage *self)
{
  g_return_val_if_fail (WS_IS_MINING_PAGE (self), NULL);
  return self->signature_panel;
}

/* For pins (ws-mining-pin.c): the run shown, the cluster whose alignment
 * is shown, selecting a cluster by index, and the form. */
WsMiningShown *
ws_mining_page_get_shown (WsMiningPage *self)
{
  g_return_val_if_fail (WS_IS_MINING_PAGE (self), NULL);
  return self->result;
}

guint
ws_mining_page_get_shown_cluster (WsMiningPage *self)
{
  g_return_val_if_fail (WS_IS_MINING_PAGE (self), G_MAXUINT);
  return ws_cluster_alignment_get_cluster (self->alignment);
}

gboolean
ws_mining_page_select_cluster_index (WsMiningPage *self,
                                     guint         cluster)
{
  GListModel *model = G_LIST_MODEL (self->selection);

  for (guint i = 0; i < g_list_model_get_n_items (model); i++)
    {
      g_autoptr(GtkTreeListRow) row = g_list_model_get_item (model, i);
      WsMiningItem *item = ws_cluster_table_row_item (row);

      if (ws_mining_item_get_kind (item) == WS_MINING_ITEM_CLUSTER && ws_mining_item_get_cluster (item) == cluster)
        {
          gtk_single_selection_set_selected (self->selection, i);
          return TRUE;
        }
    }
  return FALSE;
}

WsMiningForm *
ws_mining_page_get_form (WsMiningPage *self)
{
  g_return_val_if_fail (WS_IS_MINING_PAGE (self), NULL);
  return self->form;
}
