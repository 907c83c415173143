/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * waitscope-cli flag add|remove|list: the analyst's verdicts on single
 * waits, as the GUI saves them.  A wait is named by its thread and a time
 * inside it (`--wait 11588@1987.25`).  Each flag is committed on its own
 * before its line is printed, so a line on stdout means the flag is on
 * disk, whatever happens next.  With --dry-run nothing is saved: each
 * wait's line says how many other waits of its kind the flag would change
 * (ws_anomaly_result_flag_reach(), each against the flags already saved).
 * Their JSON is the core's (ws-anomaly-flag-export.c).
 */
#include "config.h"

#include <glib/gi18n.h>
#include <stdlib.h>
#include <string.h>

#include "cli-anomaly.h"
#include "ws-anomaly-flag.h"
#include "ws-anomaly-flag-export.h"
#include "cli-common.h"
#include "ws-error.h"
#include "ws-trace-loader.h"

int cli_flag (int argc, char **argv);

static gboolean
parse_wait (const char  *spec,
            gint32      *tid,
            WsTime      *time,
            GError     **error)
{
  const char *at = strchr (spec, '@');
  char *end;
  gint64 v;

  if (at == NULL)
    {
      g_set_error (error, WS_ERROR, WS_ERROR_INVALID, _("--wait %s: expected TID@TIME"), spec);
      return FALSE;
    }
  v = g_ascii_strtoll (spec, &end, 10);
  if (end != at || v <= 0 || v > G_MAXINT32)
    {
      g_set_error (error, WS_ERROR, WS_ERROR_INVALID, _("--wait %s: bad thread id"), spec);
      return FALSE;
    }
  *tid = (gint32) v;
  return cli_parse_time (at + 1, time, error);
}

/* What a flag would change: its line now, or its entry of the JSON
 * printed after the last wait (@runs). */
static void
try_flag (WsAnomalyResult *result,
          guint            event,
          WsAnomalyFlag    verdict,
          gboolean         wait_only,
          gint32           tid,
          WsTime           time,
          GArray          *runs)
{
  const WsWaitScore *s = ws_anomaly_result_lookup (result, 0, event);
  WsFlagDryRun run = { tid, time, verdict, { 0 }, ws_anomaly_result_get_model (result, s->model)->threshold };

  /* A flag for this wait only teaches its kind what no flag would. */
  ws_anomaly_result_flag_reach (result, 0, event, wait_only ? WS_ANOMALY_FLAG_NONE : verdict, &run.reach);
  if (runs != NULL)
    {
      g_array_append_val (runs, run);
      return;
    }
  printf (_("dry run: %s %d@%lldns %s: %u other waits of its kind would become anomalous, "
            "%u normal (threshold %.4g -> %.4g); nothing saved\n"),
          ws_anomaly_flag_to_string (verdict), tid, (long long) time, run.reach.signature, run.reach.n_to_anomalous,
          run.reach.n_to_normal, run.threshold, run.reach.threshold);
}

static int
flag_set (int           argc,
          char        **argv,
          WsAnomalyFlag verdict_default,
          const char   *command)
{
  g_autoptr(GOptionContext) context = NULL;
  g_autoptr(WsHistoryStore) store = NULL;
  g_autoptr(WsTrace) trace = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *digest = NULL;
  g_auto(GStrv) waits = NULL;
  CliAnomalyOptions options = { 0 };
  WsAnomalySettings settings;
  gboolean anomalous = FALSE, normal = FALSE, dry_run = FALSE, wait_only = FALSE;
  WsAnomalyFlag verdict = verdict_default;
  g_autoptr(WsAnomalyResult) result = NULL;
  g_autoptr(GArray) runs = NULL;
  int status;
  const GOptionEntry entries[] = {
    { "wait", 'w', 0, G_OPTION_ARG_STRING_ARRAY, &waits, N_("The wait: thread id @ a time inside it (repeatable)"), N_("TID@TIME") },
    { "anomalous", 0, 0, G_OPTION_ARG_NONE, &anomalous, N_("add: flag as anomalous"), NULL },
    { "normal", 0, 0, G_OPTION_ARG_NONE, &normal, N_("add: flag as not anomalous"), NULL },
    { "this-wait-only", 0, 0, G_OPTION_ARG_NONE, &wait_only, N_("add: the flag judges this wait only; its kind does not learn from it"), NULL },
    { "dry-run", 0, 0, G_OPTION_ARG_NONE, &dry_run, N_("Save nothing: say how many other waits of its kind each flag would change"), NULL },
    { NULL }
  };

  context = g_option_context_new (_("TRACE --wait TID@TIME… — flag waits (add) or unflag them (remove)"));
  g_option_context_set_translation_domain (context, GETTEXT_PACKAGE);
  cli_anomaly_add_entries (context, &options);
  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);
  if (!cli_parse_options (context, command, &argc, &argv, &status))
    goto out;
  if (argc != 2 || waits == NULL)
    {
      status = cli_usage_error (command, "%s", _("give one trace and at least one --wait"));
      goto out;
    }
  if (verdict_default != WS_ANOMALY_FLAG_NONE)
    {
      if (anomalous == normal)
        {
          status = cli_usage_error (command, "%s", _("give exactly one of --anomalous and --normal"));
          goto out;
        }
      verdict = anomalous ? WS_ANOMALY_FLAG_ANOMALOUS : WS_ANOMALY_FLAG_NORMAL;
    }
  if (!cli_anomaly_settings (&options, command, &settings, &status))
    goto out;
  if ((trace = ws_trace_loader_load (argv[1], NULL, NULL, NULL, NULL, &error)) == NULL
      || (digest = ws_history_store_trace_digest (trace, &error)) == NULL
      || ((store = cli_anomaly_open_store (&options, !dry_run, &error)) == NULL && error != NULL))
    {
      status = cli_fail (error);
      goto out;
    }
  if (dry_run)
    {
      const char *digests[] = { digest };

      if ((result = ws_anomaly_detect (&trace, digests, 1, store, &settings, NULL, NULL, NULL, &error)) == NULL)
        {
          status = cli_fail (error);
          goto out;
        }
      if (options.json)
        runs = g_array_new (FALSE, FALSE, sizeof (WsFlagDryRun));
    }
  for (guint i = 0; waits[i] != NULL; i++)
    {
      WsWaitFlag flag = { 0 };
      WsTime time;
      gint32 tid;
      guint event;

      if (!parse_wait (waits[i], &tid, &time, &error))
        {
          status = cli_fail (error);
          goto out;
        }
      if ((event = ws_anomaly_flag_find_wait (trace, tid, time)) == WS_NONE)
        {
          g_set_error (&error, WS_ERROR, WS_ERROR_INVALID,
                       _("%s: thread %d has no finished wait at %s"), argv[1], tid, waits[i]);
          status = cli_fail (error);
          goto out;
        }
      ws_anomaly_flag_for_wait (trace, digest, event, settings.signature_depth, verdict, wait_only, &flag);
      if (dry_run)
        try_flag (result, event, verdict, wait_only, tid, flag.event_time, runs);
      else if (ws_history_store_flag_wait (store, &flag, &error))
        {
          const char *kind = flag.signature;

          if (g_str_has_prefix (kind, WS_ANOMALY_WAIT_ONLY_PREFIX))
            kind += strlen (WS_ANOMALY_WAIT_ONLY_PREFIX);
          /* Printed after the commit: a line means the flag is durable. */
          printf ("%s %d@%" G_GINT64_FORMAT "ns %s\n", ws_anomaly_flag_to_string (verdict), tid, flag.event_time, kind);
          fflush (stdout);
        }
      ws_wait_flag_clear (&flag);
      if (error != NULL)
        {
          status = cli_fail (error);
          goto out;
        }
    }
  if (runs != NULL)
    {
      g_autoptr(JsonNode) json = ws_anomaly_flag_export_dry_run_json ((WsFlagDryRun *) runs->data, runs->len);

      cli_print_json_node (json);
    }
  status = CLI_EXIT_OK;

out:
  cli_anomaly_options_clear (&options);
  return status;
}

static int
flag_list (int    argc,
           char **argv)
{
  g_autoptr(GOptionContext) context = NULL;
  g_autoptr(WsHistoryStore) store = NULL;
  g_autoptr(GArray) flags = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *signature = NULL;
  CliAnomalyOptions options = { 0 };
  int status;
  const GOptionEntry entries[] = {
    { "signature", 0, 0, G_OPTION_ARG_STRING, &signature, N_("Only this signature's flags"), N_("SIGNATURE") },
    { NULL }
  };

  context = g_option_context_new (_("— the flags in the history store, oldest first"));
  g_option_context_set_translation_domain (context, GETTEXT_PACKAGE);
  cli_anomaly_add_entries (context, &options);
  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);
  if (!cli_parse_options (context, "flag list", &argc, &argv, &status))
    goto out;
  if (argc != 1)
    {
      status = cli_usage_error ("flag list", "%s", _("no arguments expected"));
      goto out;
    }
  store = cli_anomaly_open_store (&options, FALSE, &error);
  if (error != NULL)
    {
      status = cli_fail (error);
      goto out;
    }
  flags = store ? ws_history_store_list_wait_flags (store, signature, &error)
                : g_array_new (FALSE, TRUE, sizeof (WsWaitFlag));
  if (flags == NULL)
    {
      status = cli_fail (error);
      goto out;
    }
  if (options.json)
    {
      g_autoptr(JsonNode) json = ws_anomaly_flag_export_list_json (flags);

      cli_print_json_node (json);
    }
  else
    for (guint i = 0; i < flags->len; i++)
      {
        const WsWaitFlag *f = &g_array_index (flags, WsWaitFlag, i);
        g_autofree char *dur = cli_format_duration (f->duration);
        g_autofree char *when = cli_format_timestamp (f->event_time);

        printf ("%-9s %7d  %-16s %10s  %.12s  %s\n", ws_anomaly_flag_to_string (f->flag), f->tid, when, dur,
                f->trace_digest, f->signature);
      }
  status = CLI_EXIT_OK;

out:
  cli_anomaly_options_clear (&options);
  return status;
}

int
cli_flag (int    argc,
          char **argv)
{
  if (argc >= 2 && strcmp (argv[1], "add") == 0)
    return flag_set (argc - 1, argv + 1, WS_ANOMALY_FLAG_ANOMALOUS, "flag add");
  if (argc >= 2 && strcmp (argv[1], "remove") == 0)
    return flag_set (argc - 1, argv + 1, WS_ANOMALY_FLAG_NONE, "flag remove");
  if (argc >= 2 && strcmp (argv[1], "list") == 0)
    return flag_list (argc - 1, argv + 1);
  if (argc >= 2 && (strcmp (argv[1], "--help") == 0 || strcmp (argv[1], "-h") == 0))
    {
      printf ("%s\n", _("Usage: waitscope-cli flag add|remove|list [OPTION…]"));
      return CLI_EXIT_OK;
    }
  return cli_usage_error ("flag", "%s", _("expected add, remove or list"));
}
