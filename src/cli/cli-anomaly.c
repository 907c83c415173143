/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * waitscope-cli anomalies TRACE…: every finished wait scored against its
 * signature's mixture model (history + the traces given + the analyst's
 * flags), through the same core entry point as the GUI,
 * ws_anomaly_detect().
 *
 * waitscope-cli model show SIGNATURE: the mixture the history gives one
 * signature (or "pool:FUNCTION", or "*").
 *
 * Both only read the history store: a store that does not exist yet is
 * not created, and nothing is recorded.
 */
#include "config.h"

#include <glib/gi18n.h>
#include <math.h>
#include <string.h>

#include "cli-anomaly.h"
#include "cli-common.h"
#include "ws-anomaly-detector.h"
#include "ws-anomaly-export.h"
#include "ws-anomaly-plot.h"
#include "ws-error.h"

int cli_anomalies (int argc, char **argv);
int cli_model (int argc, char **argv);

/* Frees what the shared options' parsing allocated. */
void
cli_anomaly_options_clear (CliAnomalyOptions *options)
{
  g_clear_pointer (&options->history, g_free);
  g_clear_pointer (&options->rule, g_free);
  g_clear_pointer (&options->flag_weights, g_free);
  g_clear_pointer (&options->flag_model_weight_text, g_free);
}

void
cli_anomaly_add_entries (GOptionContext    *context,
                         CliAnomalyOptions *options)
{
  const GOptionEntry entries[] = {
    { "history", 0, 0, G_OPTION_ARG_FILENAME, &options->history,
      N_("The history database (default $WAITSCOPE_HISTORY or ~/.local/share/waitscope/history.sqlite)"), N_("FILE") },
    { "threshold", 0, 0, G_OPTION_ARG_DOUBLE, &options->threshold,
      N_("The false-discovery rate over each kind's waits, or with --rule tail the bar on each wait's P(D ≥ d) (default 0.05)"), N_("P") },
    { "rule", 0, 0, G_OPTION_ARG_STRING, &options->rule,
      N_("Where a kind's cut lies before flags: fdr (default: rare anomalies, Benjamini–Hochberg over the kind's waits) or tail (the paper's P(D ≥ d) ≤ threshold for each wait)"), N_("RULE") },
    { "depth", 0, 0, G_OPTION_ARG_INT, &options->depth,
      N_("User-space frames in a wait signature (default 2)"), N_("N") },
    { "flag-prior", 0, 0, G_OPTION_ARG_DOUBLE, &options->flag_prior,
      N_("Learning rule: flags a pool of signatures needs to move its bar halfway to what they say (default 1)"), N_("K") },
    { "flag-max-shift", 0, 0, G_OPTION_ARG_DOUBLE, &options->flag_max_shift,
      N_("Learning rule: the most other signatures' flags move a bar, in nats of −ln P (default 0: off)"), N_("NATS") },
    { "flag-model-weight", 0, 0, G_OPTION_ARG_STRING, &options->flag_model_weight_text,
      N_("Learning rule: how many flags the model's own verdicts on a signature's waits weigh in all: waits (default: one flag a wait), a number, or 0 (none)"), N_("FLAGS") },
    { "flag-weights", 0, 0, G_OPTION_ARG_STRING, &options->flag_weights,
      N_("Learning rule: what a flag weighs: posterior (default: a wait flagged normal weighs the chance its kind's main component explains it) or count (every flag 1)"), N_("HOW") },
    { "json", 0, 0, G_OPTION_ARG_NONE, &options->json, N_("Print JSON"), NULL },
    { NULL }
  };

  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);
}

/* Fills @settings from the options; FALSE (usage error printed) if out of range. */
gboolean
cli_anomaly_settings (CliAnomalyOptions *options,
                      const char        *command,
                      WsAnomalySettings *settings,
                      int               *status)
{
  ws_anomaly_settings_init (settings);
  if (options->threshold != 0)
    {
      if (!(options->threshold > 0 && options->threshold < 1))
        {
          *status = cli_usage_error (command, _("--threshold must be between 0 and 1, not %g"), options->threshold);
          return FALSE;
        }
      settings->threshold = options->threshold;
    }
  if (options->rule != NULL && !ws_anomaly_rule_from_string (options->rule, &settings->rule))
    {
      *status = cli_usage_error (command, _("--rule must be fdr or tail, not “%s”"), options->rule);
      return FALSE;
    }
  if (options->flag_weights != NULL)
    {
      if (g_strcmp0 (options->flag_weights, "count") == 0)
        settings->flag_weights = WS_FLAG_WEIGHTS_COUNT;
      else if (g_strcmp0 (options->flag_weights, "posterior") == 0)
        settings->flag_weights = WS_FLAG_WEIGHTS_POSTERIOR;
      else
        {
          *status = cli_usage_error (command, _("--flag-weights must be posterior or count, not “%s”"), options->flag_weights);
          return FALSE;
        }
    }
  if (options->flag_prior != 0 || options->flag_max_shift != 0)
    {
      if (options->flag_prior < 0 || options->flag_max_shift < 0 || isnan (options->flag_prior) || isnan (options->flag_max_shift))
        {
          *status = cli_usage_error (command, _("--flag-prior and --flag-max-shift must be positive"));
          return FALSE;
        }
      if (options->flag_prior != 0)
        settings->flag_prior = options->flag_prior;
      if (options->flag_max_shift != 0)
        settings->flag_max_shift = options->flag_max_shift;
    }
  if (options->flag_model_weight_text != NULL)
    {
      char *end = NULL;
      double w = g_ascii_strtod (options->flag_model_weight_text, &end);

      if (g_strcmp0 (options->flag_model_weight_text, "waits") == 0)
        w = WS_ANOMALY_FLAG_MODEL_WEIGHT_WAITS;
      else if (end == options->flag_model_weight_text || *end != '\0' || !(w >= 0 && isfinite (w)))
        {
          *status = cli_usage_error (command, _("--flag-model-weight must be “waits” or a number, 0 or more"));
          return FALSE;
        }
      settings->flag_model_weight = w;
    }
  if (options->depth != 0)
    {
      if (options->depth < 1 || options->depth > WS_WAIT_SIGNATURE_MAX_DEPTH)
        {
          *status = cli_usage_error (command, _("--depth must be between 1 and %d"), WS_WAIT_SIGNATURE_MAX_DEPTH);
          return FALSE;
        }
      settings->signature_depth = options->depth;
    }
  return TRUE;
}

static char *
store_path (CliAnomalyOptions *options)
{
  return options->history ? g_strdup (options->history) : ws_history_store_default_path ();
}

/**
 * cli_anomaly_open_store:
 * @create: open for writing (created if missing); else %NULL without an
 *   error when there is no store yet
 */
WsHistoryStore *
cli_anomaly_open_store (CliAnomalyOptions  *options,
                        gboolean            create,
                        GError            **error)
{
  g_autofree char *path = store_path (options);

  if (!create && !g_file_test (path, G_FILE_TEST_EXISTS))
    return NULL;
  return ws_history_store_open (path, error);
}

/* ------------------------------------------------------------------ */
/* anomalies                                                            */

typedef struct {
  guint  trace;
  const WsWaitScore *score;
} Ranked;

/* Surprise × delay caused, largest first (ws_wait_score_rank()). */
static int
compare_ranked (gconstpointer a,
                gconstpointer b)
{
  double x = ws_wait_score_rank (((const Ranked *) a)->score), y = ws_wait_score_rank (((const Ranked *) b)->score);
  return x > y ? -1 : x < y;
}

static void
print_text (WsAnomalyResult *result,
            GPtrArray       *traces,
            int              top)
{
  g_autoptr(GArray) ranked = g_array_new (FALSE, FALSE, sizeof (Ranked));

  for (guint t = 0; t < traces->len; t++)
    {
      guint n;
      const WsWaitScore *s = ws_anomaly_result_get_scores (result, t, &n);

      printf (g_dngettext (GETTEXT_PACKAGE, "%s: %u wait, %u anomalous, %u of them shown (they delayed another thread, or are flagged)\n",
                           "%s: %u waits, %u anomalous, %u of them shown (they delayed another thread, or are flagged)\n", n),
              ws_trace_get_name (g_ptr_array_index (traces, t)),
              n, ws_anomaly_result_count_anomalous (result, t), ws_anomaly_result_count_shown (result, t));
      for (guint i = 0; i < n; i++)
        if (s[i].shown)
          {
            Ranked r = { t, &s[i] };
            g_array_append_val (ranked, r);
          }
    }
  g_array_sort (ranked, compare_ranked);
  if (ranked->len > 0)
    printf ("%s\n", _("  P(D≥d)     duration    delayed     tid  time              flag       signature"));
  for (guint i = 0; i < ranked->len && (top <= 0 || i < (guint) top); i++)
    {
      Ranked *r = &g_array_index (ranked, Ranked, i);
      WsTrace *trace = ws_anomaly_result_get_trace (result, r->trace);
      const WsEvent *e = ws_trace_get_event (trace, r->score->event);
      g_autofree char *dur = cli_format_duration (ws_event_duration (e));
      g_autofree char *delayed = cli_format_duration (r->score->delay_caused);
      g_autofree char *when = cli_format_timestamp (e->time);

      printf ("  %-10.3g %10s %10s %7d  %-16s  %-9s  %s\n", r->score->score, dur, delayed,
              ws_trace_get_thread (trace, e->thread)->tid, when,
              ws_anomaly_flag_to_string (r->score->flag),
              ws_anomaly_result_get_model (result, r->score->model)->key);
    }
}

int
cli_anomalies (int    argc,
               char **argv)
{
  g_autoptr(GOptionContext) context = NULL;
  g_autoptr(GPtrArray) traces = NULL;
  g_autoptr(GPtrArray) digests = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(WsHistoryStore) store = NULL;
  g_autoptr(WsAnomalyResult) result = NULL;
  g_autoptr(WsFileHashes) hashes = NULL;
  g_autoptr(GError) error = NULL;
  CliAnomalyOptions options = { 0 };
  WsAnomalySettings settings;
  gboolean all = FALSE, need_digests;
  int top = 20, status;
  const GOptionEntry entries[] = {
    { "all", 0, 0, G_OPTION_ARG_NONE, &all, N_("JSON: every wait, not only the anomalous and flagged ones"), NULL },
    { "top", 0, 0, G_OPTION_ARG_INT, &top, N_("Text: list the N most anomalous waits (default 20, 0 for all)"), N_("N") },
    { NULL }
  };

  context = g_option_context_new (_("TRACE… — score every wait against its signature's history"));
  g_option_context_set_translation_domain (context, GETTEXT_PACKAGE);
  cli_anomaly_add_entries (context, &options);
  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);
  g_option_context_set_description (context,
    _("Each finished wait is scored by P(D ≥ d) under a Gaussian mixture of its signature's "
      "log-durations (the history store's samples, the waits of the traces given, and the waits "
      "flagged normal); it is anomalous at or below the threshold, as moved by the flags of "
      "`waitscope-cli flag`.  Reads the history, never writes it."));
  if (!cli_parse_options (context, "anomalies", &argc, &argv, &status))
    goto out;
  if (argc < 2)
    {
      status = cli_usage_error ("anomalies", "%s", _("no trace given"));
      goto out;
    }
  if (!cli_anomaly_settings (&options, "anomalies", &settings, &status))
    goto out;
  /* A trace's digest is its identity in the history (its recorded waits,
   * its flags) and a member of the JSON.  Without a history, the text
   * needs none: the file is not read a second time to hash it. */
  {
    g_autofree char *path = store_path (&options);
    need_digests = options.json || g_file_test (path, G_FILE_TEST_EXISTS);
  }
  if (need_digests)
    hashes = ws_file_hashes_begin (argv + 1);
  if ((traces = cli_load_traces (argv + 1, NULL, &error)) == NULL)
    {
      status = cli_fail (error);
      goto out;
    }
  for (guint t = 0; t < traces->len; t++)
    {
      char *digest = need_digests ? ws_history_store_trace_digest_hashed (g_ptr_array_index (traces, t), hashes, &error)
                                  : g_strdup ("");
      if (digest == NULL)
        {
          status = cli_fail (error);
          goto out;
        }
      g_ptr_array_add (digests, digest);
    }
  store = cli_anomaly_open_store (&options, FALSE, &error);
  if (error != NULL)
    {
      status = cli_fail (error);
      goto out;
    }
  result = ws_anomaly_detect ((WsTrace * const *) traces->pdata, (const char * const *) digests->pdata,
                              traces->len, store, &settings, NULL, NULL, NULL, &error);
  if (result == NULL)
    {
      status = cli_fail (error);
      goto out;
    }
  if (options.json)
    ws_anomaly_export_json (stdout, result, store ? ws_history_store_get_path (store) : NULL, all);
  else
    print_text (result, traces, top);
  status = CLI_EXIT_OK;

out:
  cli_anomaly_options_clear (&options);
  return status;
}

/* ------------------------------------------------------------------ */
/* model show                                                           */

static void
print_model_text (const WsAnomalyModel *m)
{
  g_autofree char *from = cli_format_duration ((WsTime) ceil (exp (MIN (m->cut, 60.0))));

  printf (_("signature  %s\n"), m->key);
  printf (_("pool       %s\n"), m->pool);
  printf (_("samples    %u (history %u), fitted at the %s level\n"), m->samples ? m->samples->len : 0,
          m->n_history, ws_model_level_to_string (m->level));
  printf (_("flags      %u normal, %u anomalous\n"), m->n_flagged_normal, m->n_flagged_anomalous);
  printf (_("threshold  P(D ≥ d) ≤ %.4g: anomalous from %s\n"), m->threshold, from);
  printf (_("mixture    K = %u, BIC %.1f, mean log-likelihood %.4f\n"), m->gmm.n_components, m->gmm.bic,
          m->gmm.mean_log_likelihood);
  for (guint k = 0; k < m->gmm.n_components; k++)
    {
      g_autofree char *median = cli_format_duration ((WsTime) llround (exp (MIN (m->gmm.components[k].mean, 60.0))));
      printf (_("  component %u: weight %.3f, median %s, σ %.3f (log ns)\n"), k + 1,
              m->gmm.components[k].weight, median, sqrt (m->gmm.components[k].variance));
    }
}

int
cli_model (int    argc,
           char **argv)
{
  g_autoptr(GOptionContext) context = NULL;
  g_autoptr(WsHistoryStore) store = NULL;
  g_autoptr(GError) error = NULL;
  CliAnomalyOptions options = { 0 };
  WsAnomalySettings settings;
  WsAnomalyModel model = { 0 };
  g_autofree char *figure = NULL;
  int status;
  const GOptionEntry entries[] = {
    { "figure", 0, 0, G_OPTION_ARG_FILENAME, &figure,
      N_("Also draw the model view (history histogram, mixture, threshold) as PNG, SVG or PDF"), N_("FILE") },
    { NULL }
  };

  context = g_option_context_new (_("show SIGNATURE — the mixture model the history gives a wait signature"));
  g_option_context_set_translation_domain (context, GETTEXT_PACKAGE);
  cli_anomaly_add_entries (context, &options);
  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);
  g_option_context_set_description (context,
    _("SIGNATURE is as `anomalies` prints it (user frames caller first, then | and the kernel "
      "blocking function), or pool:FUNCTION for a pool, or * for every wait."));
  if (!cli_parse_options (context, "model", &argc, &argv, &status))
    goto out;
  if (argc != 3 || strcmp (argv[1], "show") != 0)
    {
      status = cli_usage_error ("model", "%s", _("usage: model show SIGNATURE"));
      goto out;
    }
  if (!cli_anomaly_settings (&options, "model", &settings, &status))
    goto out;
  if ((store = cli_anomaly_open_store (&options, FALSE, &error)) == NULL)
    {
      if (error == NULL)
        g_set_error (&error, WS_ERROR, WS_ERROR_INVALID, _("%s: the history store holds no waits yet"), argv[2]);
      status = cli_fail (error);
      goto out;
    }
  if (!ws_anomaly_fit_key (store, argv[2], &settings, &model, NULL, &error))
    {
      status = cli_fail (error);
      goto out;
    }
  if (figure != NULL && !ws_anomaly_plot_export (figure, &model, NAN, 800, 480, &error))
    {
      ws_anomaly_model_clear (&model);
      status = cli_fail (error);
      goto out;
    }
  if (options.json)
    {
      g_autoptr(JsonNode) root = ws_anomaly_export_model_show_json (&model);
      cli_print_json_node (root);
    }
  else
    print_model_text (&model);
  ws_anomaly_model_clear (&model);
  status = CLI_EXIT_OK;

out:
  cli_anomaly_options_clear (&options);
  return status;
}
