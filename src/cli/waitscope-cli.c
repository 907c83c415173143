/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * waitscope-cli: every Waitscope analysis, headless, for batch work over
 * many traces, for scripts and for the tests.
 */
#include "config.h"

#include <glib/gi18n.h>
#include <locale.h>
#include <stdio.h>
#include <string.h>

#include "cli-commands.h"
#include "ws-atomic-file.h"

int cli_convert (int argc, char **argv);
int cli_info (int argc, char **argv);
int cli_scenarios (int argc, char **argv);
int cli_waitgraph (int argc, char **argv);
int cli_readytree (int argc, char **argv);
int cli_critical_path (int argc, char **argv);
int cli_inspect (int argc, char **argv);
int cli_export_timeline (int argc, char **argv);
int cli_mine (int argc, char **argv);
int cli_cluster (int argc, char **argv);
int cli_digest (int argc, char **argv);
int cli_digest_merge (int argc, char **argv);
int cli_history (int argc, char **argv);
int cli_why (int argc, char **argv);
int cli_collapse (int argc, char **argv);
int cli_export_chrome (int argc, char **argv);
int cli_export_sqlite (int argc, char **argv);
int cli_query (int argc, char **argv);
int cli_pivot (int argc, char **argv);
int cli_anomalies (int argc, char **argv);
int cli_flag (int argc, char **argv);
int cli_model (int argc, char **argv);
int cli_session (int argc, char **argv);
int cli_report (int argc, char **argv);
int cli_impact (int argc, char **argv);
int cli_awg (int argc, char **argv);
int cli_contrast (int argc, char **argv);
int cli_record (int argc, char **argv);

static const CliCommand commands[] = {
  { "why", cli_why, N_("What held a delay up: its causes, top cause first") },
  { "record", cli_record, N_("Record waits with perf: a command, a pid or the whole system") },
  { "convert", cli_convert, N_("Convert a trace to the JSON trace format") },
  { "info", cli_info, N_("What a trace holds: threads, waits, the costliest waits") },
  { "scenarios", cli_scenarios, N_("Scenario instances and their durations") },
  { "waitgraph", cli_waitgraph, N_("The wait graph of a thread in a window (JSON or DOT)") },
  { "readytree", cli_readytree, N_("The ready tree of a thread's longest wait, with its anomalous chain") },
  { "critical-path", cli_critical_path, N_("The critical path of a thread in a window") },
  { "inspect", cli_inspect, N_("Over- and under-connections of a wait graph or a trace") },
  { "collapse", cli_collapse, N_("Folded stacks for flame graphs (samples as stackcollapse-perf.pl, or waits)") },
  { "export-chrome", cli_export_chrome, N_("The trace as Chrome / Perfetto trace event JSON") },
  { "export-sqlite", cli_export_sqlite, N_("The trace as an SQLite database (tables and views: docs/sql.md)") },
  { "query", cli_query, N_("One SQL statement over a trace: its rows as text, JSON or CSV") },
  { "pivot", cli_pivot, N_("Where the threads' time goes, by process, thread, state, readier or function") },
  { "export-timeline", cli_export_timeline, N_("The thread timeline as a PNG, SVG or PDF figure") },
  { "mine", cli_mine, N_("Costly maximal call-stack patterns of many traces (StackMine)") },
  { "cluster", cli_cluster, N_("Clusters of similar costly call-stack patterns, ranked") },
  { "digest", cli_digest, N_("Reduce traces to small digests that mine and cluster read (a fleet's map)") },
  { "digest-merge", cli_digest_merge, N_("Merge digests into one (a fleet's reduce)") },
  { "impact", cli_impact, N_("How much time chosen components cost a scenario (impact analysis)") },
  { "awg", cli_awg, N_("The aggregated wait graph of a scenario's instances (text, JSON or DOT)") },
  { "contrast", cli_contrast, N_("Contrast patterns: what slow instances do that fast ones do not") },
  { "history", cli_history, N_("The history store: add traces, its counts, the commonest functions") },
  { "anomalies", cli_anomalies, N_("Every wait scored against its signature's history: anomalous waits and flags") },
  { "flag", cli_flag, N_("Flag waits anomalous or normal, unflag them, list the flags") },
  { "model", cli_model, N_("The mixture model of a wait signature's history") },
  { "session", cli_session, N_("Session files: new, pin a view, show (findings for reviews)") },
  { "report", cli_report, N_("A session's findings as one HTML file or a multi-page PDF") },
  { NULL, NULL, NULL },
};

static void
print_usage (FILE *out)
{
  fprintf (out, "%s\n\n", _("Usage: waitscope-cli COMMAND [OPTION…] TRACE…"));
  fprintf (out, "%s\n", _("Commands:"));
  for (guint i = 0; commands[i].name != NULL; i++)
    fprintf (out, "  %-14s %s\n", commands[i].name, _(commands[i].summary));
  fprintf (out, "\n%s\n", _("Run “waitscope-cli COMMAND --help” for the options of a command."));
}

int
main (int   argc,
      char *argv[])
{
  setlocale (LC_ALL, "");
  bindtextdomain (GETTEXT_PACKAGE, LOCALEDIR);
  bind_textdomain_codeset (GETTEXT_PACKAGE, "UTF-8");
  textdomain (GETTEXT_PACKAGE);
  /* Ctrl+C during an output leaves neither half a file nor a temporary one. */
  ws_atomic_file_clean_up_on_signals ();

  if (argc < 2 || strcmp (argv[1], "--help") == 0 || strcmp (argv[1], "-h") == 0)
    {
      print_usage (argc < 2 ? stderr : stdout);
      return argc < 2 ? 2 : 0;
    }

  if (strcmp (argv[1], "--version") == 0)
    {
      printf ("waitscope-cli %s\n", PACKAGE_VERSION);
      return 0;
    }

  for (guint i = 0; commands[i].name != NULL; i++)
    if (strcmp (argv[1], commands[i].name) == 0)
      return commands[i].run (argc - 1, argv + 1);

  fprintf (stderr, _("waitscope-cli: unknown command “%s”\n"), argv[1]);
  print_usage (stderr);
  return 2;
}
