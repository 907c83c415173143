/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * waitscope-cli history add|stats|top-functions: the history store seen
 * from the command line.  `add` records traces without mining them (so a
 * batch of old recordings can weight the similarity of later clusters),
 * `stats` says what the store holds, `top-functions` lists the functions
 * in the most callstacks — the least telling ones by StackMine's Uni
 * weight.
 *
 * `stats` and `top-functions` only read: a store that does not exist yet
 * is reported empty, not created.
 */
#include "config.h"

#include <glib/gi18n.h>
#include <string.h>

#include "cli-common.h"
#include "ws-anomaly-detector.h"
#include "ws-digest.h"
#include "ws-stack-counts.h"
#include "ws-error.h"
#include "ws-history-export.h"
#include "ws-history-store.h"
#include "ws-trace-loader.h"

int cli_history (int argc, char **argv);

typedef struct {
  char     *history;
  gboolean  json;
  int       n;
} HistoryOptions;

static void
add_common_entries (GOptionContext *context,
                    HistoryOptions *options)
{
  const GOptionEntry entries[] = {
    { "history", 0, 0, G_OPTION_ARG_FILENAME, &options->history,
      N_("The history database (default $WAITSCOPE_HISTORY or ~/.local/share/waitscope/history.sqlite)"), N_("FILE") },
    { "json", 0, 0, G_OPTION_ARG_NONE, &options->json, N_("Print JSON"), NULL },
    { NULL }
  };

  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);
}

static char *
store_path (HistoryOptions *options)
{
  return options->history ? g_strdup (options->history) : ws_history_store_default_path ();
}

/* Opens the store for reading; %NULL without an error when there is none. */
static WsHistoryStore *
open_existing (const char  *path,
               GError     **error)
{
  if (!g_file_test (path, G_FILE_TEST_EXISTS))
    return NULL;
  return ws_history_store_open_read_only (path, error);
}

/* ------------------------------------------------------------------ */
/* add                                                                  */

typedef WsHistoryAddOutcome AddOutcome;

static void
add_outcome_clear (gpointer data)
{
  AddOutcome *o = data;

  g_free (o->path);
  g_free (o->digest);
  g_free (o->error);
}

/* Ends the batch begun for @o's trace: committed if its stacks and its
 * waits were @recorded, else rolled back, so that the store holds all of
 * the trace or none of it.  Returns whether it was committed. */
static gboolean
end_batch (WsHistoryStore *store,
           gboolean        recorded,
           gboolean        waits_new,
           AddOutcome     *o,
           GError        **error)
{
  if (!recorded)
    {
      ws_history_store_end_batch (store, FALSE, NULL);
      return FALSE;
    }
  if (!ws_history_store_end_batch (store, TRUE, error))
    return FALSE;
  o->not_recorded = FALSE;
  o->newly = o->newly || waits_new;
  return TRUE;
}

/* A file already in the store is known by its bytes' digest, before
 * parsing it: re-adding a directory of old traces costs a hash each. */
static void
add_one (WsHistoryStore *store,
         const char     *path,
         AddOutcome     *o)
{
  g_autoptr(WsTrace) trace = NULL;
  g_autoptr(GError) error = NULL;
  WsAnomalySettings settings;
  gboolean waits_new = FALSE, recorded;

  ws_anomaly_settings_init (&settings);
  o->path = g_strdup (path);
  if (g_file_test (path, G_FILE_TEST_IS_REGULAR))
    {
      if ((o->digest = ws_history_store_file_digest (path, &error)) == NULL)
        goto fail;
      if (ws_history_store_has_trace (store, o->digest)
          && ws_history_store_has_waits (store, o->digest, ws_wait_history_depth (settings.signature_depth)))
        return;
    }

  if ((trace = ws_trace_loader_load (path, NULL, NULL, NULL, NULL, &error)) == NULL)
    goto fail;
  /* Standard input or a pipe: known by its content. */
  if (o->digest == NULL && (o->digest = ws_history_store_trace_digest (trace, &error)) == NULL)
    goto fail;
  /* Its stacks and its waits (for the anomaly models, once per content
   * too) in one transaction: all of the trace, or none of it. */
  o->not_recorded = TRUE;
  if (!ws_history_store_begin_batch (store, &error))
    goto fail;
  recorded = ws_history_store_record_trace_digest (store, trace, o->digest, &o->newly, &error) &&
             ws_anomaly_record_trace (store, trace, o->digest, &settings, &waits_new, NULL, &error);
  if (!end_batch (store, recorded, waits_new, o, &error))
    goto fail;
  return;

fail:
  o->error = o->not_recorded
             ? g_strdup_printf (_("%s; nothing of %s was recorded"), error->message, path)
             : g_strdup (error->message);
}

/* Trace @index of a digest, recorded as add_one() records the trace:
 * its stacks and its waits under its content hash, in one transaction. */
static void
add_digest_trace (WsHistoryStore *store,
                  WsDigest       *digest,
                  guint           index,
                  AddOutcome     *o)
{
  const WsDigestTrace *t = ws_digest_get_trace (digest, index);
  g_autoptr(GArray) stacks = g_array_new (FALSE, FALSE, sizeof (WsStackId));
  g_autoptr(GArray) weights = g_array_new (FALSE, FALSE, sizeof (guint64));
  g_autoptr(GError) error = NULL;
  WsAnomalySettings settings;
  gboolean waits_new = FALSE, recorded;

  ws_anomaly_settings_init (&settings);
  o->path = g_strdup (t->path);
  o->digest = g_strdup (t->content_hash);
  if (t->waits->depth != settings.signature_depth)
    {
      o->error = g_strdup_printf (_("%s: its wait samples are at signature depth %u, not %u"),
                                  t->path, t->waits->depth, settings.signature_depth);
      return;
    }
  for (guint i = 0; i < t->counts->len; i++)
    {
      const WsStackCount *c = &g_array_index (t->counts, WsStackCount, i);

      g_array_append_val (stacks, c->stack);
      g_array_append_val (weights, c->count);
    }
  o->not_recorded = TRUE;
  if (!ws_history_store_begin_batch (store, &error))
    goto fail;
  recorded = (ws_history_store_has_trace (store, t->content_hash) ||
              ws_history_store_record_stacks (store, t->content_hash, t->path, ws_digest_get_stack_table (digest),
                                              (const WsStackId *) (gpointer) stacks->data,
                                              (const guint64 *) (gpointer) weights->data, stacks->len, &o->newly,
                                              &error)) &&
             ws_anomaly_record_samples (store, t->waits, t->content_hash, &settings, &waits_new, NULL, &error);
  if (!end_batch (store, recorded, waits_new, o, &error))
    goto fail;
  return;

fail:
  o->error = g_strdup_printf (_("%s; nothing of %s was recorded"), error->message, t->path);
}

static void
print_add_json (const char *path,
                GArray     *outcomes)
{
  g_autoptr(JsonNode) root = ws_history_export_add_json (path, (const AddOutcome *) (gconstpointer) outcomes->data,
                                                         outcomes->len);

  cli_print_json_node (root);
}

static void
print_add_text (const char *path,
                GArray     *outcomes,
                guint       n_new,
                guint       n_known,
                guint       n_failed)
{
  guint n_unrecorded = 0;

  for (guint i = 0; i < outcomes->len; i++)
    {
      AddOutcome *o = &g_array_index (outcomes, AddOutcome, i);

      n_unrecorded += o->error != NULL && o->not_recorded;
      if (o->error == NULL)
        /* Translators: one line per trace of `history add`: new or already known */
        printf ("  %-6s %s\n", o->newly ? _("new") : _("known"), o->path);
    }
  printf (g_dngettext (GETTEXT_PACKAGE, "%u new trace recorded", "%u new traces recorded", n_new), n_new);
  printf (g_dngettext (GETTEXT_PACKAGE, ", %u already known", ", %u already known", n_known), n_known);
  if (n_failed - n_unrecorded > 0)
    printf (g_dngettext (GETTEXT_PACKAGE, ", %u could not be read", ", %u could not be read",
                         n_failed - n_unrecorded), n_failed - n_unrecorded);
  if (n_unrecorded > 0)
    printf (g_dngettext (GETTEXT_PACKAGE, ", %u could not be recorded", ", %u could not be recorded",
                         n_unrecorded), n_unrecorded);
  printf (_(" (history: %s)\n"), path);
}

static void
count_outcome (AddOutcome *o,
               guint      *n_new,
               guint      *n_known,
               guint      *n_failed)
{
  if (o->error != NULL)
    {
      (*n_failed)++;
      fprintf (stderr, "waitscope-cli: %s\n", o->error);
    }
  else if (o->newly)
    (*n_new)++;
  else
    (*n_known)++;
}

static int
history_add (int    argc,
             char **argv)
{
  g_autoptr(GOptionContext) context = NULL;
  g_autoptr(WsHistoryStore) store = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GArray) outcomes = NULL;
  g_autofree char *path = NULL;
  HistoryOptions options = { 0 };
  guint n_new = 0, n_known = 0, n_failed = 0;
  int status;

  context = g_option_context_new (_("TRACE… — record traces in the history store"));
  g_option_context_set_translation_domain (context, GETTEXT_PACKAGE);
  add_common_entries (context, &options);
  g_option_context_set_description (context,
    _("Adds each trace's waiting stacks and sampled running stacks to the history's function and "
      "caller/callee counts, which weight the similarity of `waitscope-cli cluster`.  A trace is "
      "counted once, however often it is added (it is known by the SHA-256 of its file)."));

  if (!cli_parse_options (context, "history add", &argc, &argv, &status))
    goto out;
  if (argc < 2)
    {
      status = cli_usage_error ("history add", "%s", _("no trace given"));
      goto out;
    }

  path = store_path (&options);
  if ((store = ws_history_store_open (path, &error)) == NULL)
    {
      status = cli_fail (error);
      goto out;
    }

  /* One trace at a time, dropped before the next: thousands of traces
   * need no more memory than the largest. */
  outcomes = g_array_sized_new (FALSE, TRUE, sizeof (AddOutcome), argc - 1);
  g_array_set_clear_func (outcomes, add_outcome_clear);
  for (int i = 1; i < argc; i++)
    {
      g_autoptr(WsDigest) digest = NULL;
      g_autoptr(GError) local = NULL;
      guint first = outcomes->len;

      /* A digest adds each of its traces, as adding the trace would. */
      if (ws_digest_file_sniff (argv[i]) && (digest = ws_digest_read (argv[i], &local)) != NULL)
        {
          g_array_set_size (outcomes, first + ws_digest_get_n_traces (digest));
          for (guint k = 0; k < ws_digest_get_n_traces (digest); k++)
            add_digest_trace (store, digest, k, &g_array_index (outcomes, AddOutcome, first + k));
        }
      else
        {
          AddOutcome *o;

          g_array_set_size (outcomes, first + 1);
          o = &g_array_index (outcomes, AddOutcome, first);
          if (local != NULL)
            {
              o->path = g_strdup (argv[i]);
              o->error = g_strdup (local->message);
            }
          else
            add_one (store, argv[i], o);
        }
      for (guint k = first; k < outcomes->len; k++)
        count_outcome (&g_array_index (outcomes, AddOutcome, k), &n_new, &n_known, &n_failed);
    }


  if (options.json)
    print_add_json (path, outcomes);
  else
    print_add_text (path, outcomes, n_new, n_known, n_failed);
  status = n_failed > 0 ? CLI_EXIT_INPUT : CLI_EXIT_OK;

out:
  g_free (options.history);
  return status;
}

/* ------------------------------------------------------------------ */
/* stats                                                                */

/* Pads by characters, not bytes: labels hold "→" and get translated. */
static void
print_count (const char *label,
             guint64     value)
{
  glong pad = 28 - g_utf8_strlen (label, -1);

  printf ("  %s%*s %" G_GUINT64_FORMAT "\n", label, (int) MAX (pad, 0), "", value);
}

static int
history_stats (int    argc,
               char **argv)
{
  g_autoptr(GOptionContext) context = NULL;
  g_autoptr(WsHistoryStore) store = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *path = NULL;
  HistoryOptions options = { 0 };
  WsHistoryStats st = { 0 };
  int status;

  context = g_option_context_new (_("— what the history store holds"));
  g_option_context_set_translation_domain (context, GETTEXT_PACKAGE);
  add_common_entries (context, &options);

  if (!cli_parse_options (context, "history stats", &argc, &argv, &status))
    goto out;
  if (argc > 1)
    {
      status = cli_usage_error ("history stats", _("unexpected argument “%s”"), argv[1]);
      goto out;
    }

  path = store_path (&options);
  store = open_existing (path, &error);
  if (error != NULL)
    {
      status = cli_fail (error);
      goto out;
    }
  if (store != NULL && !ws_history_store_get_stats (store, &st, &error))
    {
      status = cli_fail (error);
      goto out;
    }

  if (options.json)
    {
      g_autoptr(JsonNode) root = ws_history_export_stats_json (path, store != NULL, &st);

      cli_print_json_node (root);
    }
  else
    {
      printf (_("History store: %s%s\n"), path, store ? "" : _(" (not created yet)"));
      print_count (_("traces"), st.n_traces);
      print_count (_("callstacks counted"), st.n_callstacks);
      print_count (_("distinct functions"), st.n_functions);
      print_count (_("caller → callee pairs"), st.n_bigrams);
      print_count (_("wait samples"), st.n_wait_samples);
      print_count (_("wait signatures"), st.n_wait_signatures);
      print_count (_("anomaly flags"), st.n_flags);
    }
  status = CLI_EXIT_OK;

out:
  g_free (options.history);
  return status;
}

/* ------------------------------------------------------------------ */
/* top-functions                                                        */

static void
print_top_json (const char *path,
                GArray     *top,
                guint64     total)
{
  g_autoptr(JsonNode) root = ws_history_export_top_functions_json (path, top, total);

  cli_print_json_node (root);
}

static void
print_top_text (const char *path,
                GArray     *top,
                guint64     total)
{
  printf (g_dngettext (GETTEXT_PACKAGE, "The commonest functions of %llu callstack (history: %s)\n",
                       "The commonest functions of %llu callstacks (history: %s)\n", total),
          (unsigned long long) total, path);
  if (top->len > 0)
    printf ("  %4s %12s %8s  %s\n", "#", _("STACKS"), _("SHARE"), _("FUNCTION (MODULE)"));
  for (guint i = 0; i < top->len; i++)
    {
      const WsHistoryFunction *f = &g_array_index (top, WsHistoryFunction, i);

      printf ("  %4u %12" G_GUINT64_FORMAT " %7.2f%%  %s (%s)\n", i + 1, f->counts.n_stacks,
              total ? 100.0 * f->counts.n_stacks / total : 0.0, f->function, f->module);
    }
}

static int
history_top_functions (int    argc,
                       char **argv)
{
  g_autoptr(GOptionContext) context = NULL;
  g_autoptr(WsHistoryStore) store = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GArray) top = NULL;
  g_autofree char *path = NULL;
  HistoryOptions options = { 0 };
  guint64 total = 0;
  int status;
  const GOptionEntry entries[] = {
    { "n", 'n', 0, G_OPTION_ARG_INT, &options.n, N_("How many functions (default 20; 0 = all)"), N_("N") },
    { NULL }
  };

  options.n = 20;
  context = g_option_context_new (_("— the functions in the most callstacks of the history"));
  g_option_context_set_translation_domain (context, GETTEXT_PACKAGE);
  add_common_entries (context, &options);
  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);
  g_option_context_set_description (context,
    _("Functions by the number of recorded callstacks that contain them.  The commonest carry the "
      "least weight when `waitscope-cli cluster` aligns patterns (StackMine's Uni = 1 − share)."));

  if (!cli_parse_options (context, "history top-functions", &argc, &argv, &status))
    goto out;
  if (argc > 1)
    {
      status = cli_usage_error ("history top-functions", _("unexpected argument “%s”"), argv[1]);
      goto out;
    }
  if (options.n < 0)
    {
      status = cli_usage_error ("history top-functions", "%s", _("--n must not be negative"));
      goto out;
    }

  path = store_path (&options);
  store = open_existing (path, &error);
  if (error != NULL)
    {
      status = cli_fail (error);
      goto out;
    }
  if (store != NULL)
    {
      if ((top = ws_history_store_top_functions (store, options.n, &error)) == NULL)
        {
          status = cli_fail (error);
          goto out;
        }
      total = ws_history_store_get_n_callstacks (store);
    }
  else
    top = g_array_new (FALSE, TRUE, sizeof (WsHistoryFunction));

  if (options.json)
    print_top_json (path, top, total);
  else
    print_top_text (path, top, total);
  status = CLI_EXIT_OK;

out:
  g_free (options.history);
  return status;
}

/* ------------------------------------------------------------------ */

static const struct {
  const char *name;
  int       (*run) (int argc, char **argv);
  const char *summary;
} actions[] = {
  { "add", history_add, N_("Record traces in the history (each counted once)") },
  { "stats", history_stats, N_("What the history holds, and where it is") },
  { "top-functions", history_top_functions, N_("The functions in the most recorded callstacks") },
};

static void
print_actions (FILE *out)
{
  fprintf (out, "%s\n\n", _("Usage: waitscope-cli history ACTION [OPTION…]"));
  fprintf (out, "%s\n", _("Actions:"));
  for (guint i = 0; i < G_N_ELEMENTS (actions); i++)
    fprintf (out, "  %-14s %s\n", actions[i].name, _(actions[i].summary));
  fprintf (out, "\n%s\n", _("Run “waitscope-cli history ACTION --help” for the options of an action."));
}

int
cli_history (int    argc,
             char **argv)
{
  if (argc < 2)
    {
      fprintf (stderr, "waitscope-cli history: %s\n", _("no action given"));
      print_actions (stderr);
      return CLI_EXIT_USAGE;
    }
  if (strcmp (argv[1], "--help") == 0 || strcmp (argv[1], "-h") == 0)
    {
      print_actions (stdout);
      return CLI_EXIT_OK;
    }

  for (guint i = 0; i < G_N_ELEMENTS (actions); i++)
    if (strcmp (argv[1], actions[i].name) == 0)
      return actions[i].run (argc - 1, argv + 1);

  fprintf (stderr, _("waitscope-cli history: unknown action “%s”\n"), argv[1]);
  print_actions (stderr);
  return CLI_EXIT_USAGE;
}
