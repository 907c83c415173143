/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * waitscope-cli session new|pin|show: make and read .waitscope session
 * files without the GUI, so findings can be scripted (and the report
 * tested) from the command line.
 */
#include "config.h"

#include <glib/gi18n.h>
#include <stdio.h>
#include <stdlib.h>

#include "cli-common.h"
#include "cli-session.h"
#include "ws-chain.h"
#include "ws-pin-kind.h"
#include "ws-session-file.h"
#include "ws-trace-loader.h"

static int
session_new (int    argc,
             char **argv)
{
  g_autoptr(GOptionContext) context = g_option_context_new (_("SESSION TRACE… — a new session file with these traces"));
  g_autoptr(WsSessionFile) session = ws_session_file_new ();
  g_autoptr(GError) error = NULL;
  g_autofree char *title = NULL;
  gboolean force = FALSE;
  int status;
  const GOptionEntry entries[] = {
    { "title", 0, 0, G_OPTION_ARG_STRING, &title, N_("The report's title"), N_("TEXT") },
    { "force", 'f', 0, G_OPTION_ARG_NONE, &force, N_("Replace an existing session file"), NULL },
    { NULL }
  };

  g_option_context_set_translation_domain (context, GETTEXT_PACKAGE);
  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);
  if (!cli_parse_options (context, "session new", &argc, &argv, &status))
    return status;
  if (argc < 3)
    return cli_usage_error ("session new", _("give the session file and at least one trace"));
  if (!force && g_file_test (argv[1], G_FILE_TEST_EXISTS))
    {
      fprintf (stderr, _("waitscope-cli: “%s” already exists (--force replaces it)\n"), argv[1]);
      return CLI_EXIT_INPUT;
    }
  ws_session_file_set_title (session, title);
  for (int i = 2; i < argc; i++)
    {
      g_autoptr(WsTrace) trace = ws_trace_loader_load_full (argv[i], NULL, NULL, NULL, NULL, NULL, &error);
      if (trace == NULL ||
          !ws_session_file_add_trace (session, argv[i], ws_trace_get_name (trace), NULL, &error))
        return cli_fail (error);
    }
  if (!ws_session_file_save (session, argv[1], &error))
    return cli_fail (error);
  return CLI_EXIT_OK;
}

/* --trace N (an index of the session) or a path (found or added). */
static int
pin_trace (WsSessionFile *session,
           const char    *spec,
           guint         *index)
{
  g_autoptr(GError) error = NULL;
  char *end = NULL;
  guint64 n;

  if (spec == NULL)
    spec = "0";
  n = g_ascii_strtoull (spec, &end, 10);
  if (end != spec && *end == '\0')
    {
      if (n >= ws_session_file_get_n_traces (session))
        return cli_usage_error ("session pin", g_dngettext (GETTEXT_PACKAGE, "--trace %s: the session has %u trace",
                                                                   "--trace %s: the session has %u traces",
                                                                   ws_session_file_get_n_traces (session)), spec,
                                ws_session_file_get_n_traces (session));
      *index = n;
      return -1;
    }
  if (!ws_session_file_add_trace (session, spec, NULL, index, &error))
    return cli_fail (error);
  return -1;
}

/* The pin's traces, checked against the session and loaded. */
static int
load_traces (WsSessionFile *session,
             WsPin         *finding,
             GPtrArray     *traces)
{
  for (guint k = 0; k < ws_pin_get_n_traces (finding); k++)
    {
      g_autoptr(GError) error = NULL;
      guint index = ws_pin_get_trace (finding, k);
      WsTrace *trace;

      if (!ws_session_file_resolve_trace (session, index, NULL, &error))
        return cli_fail (error);
      trace = ws_trace_loader_load_full (ws_session_file_get_trace (session, index)->path, NULL, NULL,
                                         NULL, NULL, NULL, &error);
      if (trace == NULL)
        return cli_fail (error);
      g_ptr_array_add (traces, trace);
    }
  return -1;
}

/* --run-class: the class of each pinned trace, kept in the session's
 * trace classes (where the application reads them too). */
static int
set_run_classes (WsSessionFile *session,
                 WsPin         *finding,
                 char         **specs)
{
  guint n = specs != NULL ? g_strv_length (specs) : 0;

  if (n == 0)
    return -1;
  if (n != ws_pin_get_n_traces (finding))
    return cli_usage_error ("session pin", _("give one --run-class per --trace (%u, not %u)"),
                            ws_pin_get_n_traces (finding), n);
  for (guint i = 0; i < n; i++)
    {
      WsRunClass klass = g_str_equal (specs[i], "slow") ? WS_RUN_CLASS_SLOW
                         : g_str_equal (specs[i], "fast") ? WS_RUN_CLASS_FAST : WS_RUN_CLASS_NONE;

      if (klass == WS_RUN_CLASS_NONE && !g_str_equal (specs[i], "none"))
        return cli_usage_error ("session pin", _("--run-class %s: use slow, fast or none"), specs[i]);
      ws_session_file_set_trace_class (session, ws_pin_get_trace (finding, i), TRUE, klass);
    }
  return -1;
}

/* The session's classes of @finding's traces, in its order; %NULL when
 * the session gives none of them a class. */
static GArray *
session_classes (WsSessionFile *session,
                 WsPin         *finding)
{
  g_autoptr(GArray) classes = g_array_new (FALSE, FALSE, sizeof (WsRunClass));
  gboolean any = FALSE;

  for (guint k = 0; k < ws_pin_get_n_traces (finding); k++)
    {
      WsRunClass klass = WS_RUN_CLASS_NONE;

      any |= ws_session_file_get_trace_class (session, ws_pin_get_trace (finding, k), &klass);
      g_array_append_val (classes, klass);
    }
  return any ? g_steal_pointer (&classes) : NULL;
}

/* Checks the pin against its traces (the thread and event must be in the
 * first) and, for the views that rerun an analysis, runs it. */
static int
pin_check_traces (WsSessionFile *session,
                  WsPin         *finding,
                  CliPinOptions *o)
{
  g_autoptr(GPtrArray) traces = g_ptr_array_new_with_free_func (g_object_unref);
  const char *kind = ws_pin_get_kind (finding);
  const char *path = ws_session_file_get_trace (session, ws_pin_get_trace (finding, 0))->path;
  WsTrace *trace;
  int status;

  if ((status = load_traces (session, finding, traces)) >= 0)
    return status;
  trace = g_ptr_array_index (traces, 0);
  if (o->tid != G_MININT && ws_trace_find_thread (trace, o->tid) == WS_NONE)
    {
      fprintf (stderr, _("waitscope-cli: %s: no thread with tid %d in the trace\n"), path, o->tid);
      return CLI_EXIT_INPUT;
    }
  if (o->event >= (gint64) ws_trace_get_n_events (trace))
    {
      fprintf (stderr, _("waitscope-cli: %s: no event %lld (the trace has %u)\n"),
               path, (long long) o->event, ws_trace_get_n_events (trace));
      return CLI_EXIT_INPUT;
    }
  if (g_str_equal (kind, WS_PIN_KIND_ALIGNMENT) || g_str_equal (kind, WS_PIN_KIND_COVERAGE))
    {
      o->classes = session_classes (session, finding);
      return cli_pin_mining (finding, traces, o);
    }
  if (g_str_equal (kind, WS_PIN_KIND_CONTRAST) || g_str_equal (kind, WS_PIN_KIND_AWG))
    return cli_pin_contrast (finding, traces, o);
  if (g_str_equal (kind, WS_PIN_KIND_FLAME))
    return cli_pin_flame (finding, traces, o);
  return -1;
}

/* Every --trace, in order (the session's trace 0 without one). */
static int
pin_traces (WsSessionFile *session,
            char         **specs,
            WsPin         *finding)
{
  for (guint i = 0; specs == NULL ? i == 0 : specs[i] != NULL; i++)
    {
      guint index = 0;
      int status = pin_trace (session, specs ? specs[i] : NULL, &index);

      if (status >= 0)
        return status;
      ws_pin_add_trace (finding, index);
    }
  return -1;
}

static int
pin_fill (WsPin         *finding,
          CliPinOptions *o)
{
  g_autoptr(GError) error = NULL;
  WsTime t0 = 0, t1 = 0;
  WsChainMetric metric;

  if (o->tid != G_MININT)
    ws_pin_set_tid (finding, o->tid);
  if ((o->from == NULL) != (o->to == NULL))
    return cli_usage_error ("session pin", _("give both --from and --to, or neither"));
  if (o->from != NULL)
    {
      if (!cli_parse_time (o->from, &t0, &error) ||
          !cli_parse_time (o->to[0] == '+' ? o->to + 1 : o->to, &t1, &error))
        return cli_usage_error ("session pin", "%s", error->message);
      if (o->to[0] == '+')
        t1 += t0;
      if (t1 < t0)
        return cli_usage_error ("session pin", _("the window ends before it starts"));
      ws_pin_set_window (finding, t0, t1);
    }
  if (o->chain_metric != NULL)
    {
      if (!ws_chain_metric_from_string (o->chain_metric, &metric))
        return cli_usage_error ("session pin", _("unknown chain metric “%s”"), o->chain_metric);
      ws_pin_set_setting_string (finding, "chain_metric", o->chain_metric);
    }
  if (o->lock_only)
    ws_pin_set_setting_bool (finding, "lock_only", TRUE);
  ws_pin_set_event (finding, o->event);
  ws_pin_set_scenario_instance (finding, o->scenario_instance);
  ws_pin_set_title (finding, o->title);
  ws_pin_set_note (finding, o->note);
  return -1;
}

/* The kinds this command pins, from the registry: the built-in ones.  A
 * kind a page of the application registers exists only in the
 * application, so its pins are made there (a session holding one still
 * loads, shows and takes other pins here). */
static char *
pinnable_kinds (void)
{
  g_autoptr(GPtrArray) kinds = ws_pin_kind_list ();
  GString *list = g_string_new (NULL);

  for (guint i = 0; i < kinds->len; i++)
    g_string_append_printf (list, "%s%s", i > 0 ? ", " : "", (const char *) g_ptr_array_index (kinds, i));
  return g_string_free (list, FALSE);
}

/* The checks on the arguments as a whole: -1, or the usage error's status. */
static int
check_pin_args (int            argc,
                CliPinOptions *o)
{
  if (argc != 2)
    return cli_usage_error ("session pin", _("give one session file"));
  if (o->view == NULL)
    {
      g_autofree char *kinds = pinnable_kinds ();
      return cli_usage_error ("session pin", _("--view must name a view kind (%s)"), kinds);
    }
  if (ws_pin_kind_lookup (o->view) == NULL)
    {
      g_autofree char *kinds = pinnable_kinds ();
      /* Translators: the first %s is the kind given, the second the list of kinds */
      return cli_usage_error ("session pin", _("unknown view kind “%s”: the command line pins %s; "
                                               "a view of a page added to the application is pinned from that page"),
                              o->view, kinds);
    }
  if (o->scenario_instance >= 0 && (o->tid != G_MININT || o->from != NULL))
    return cli_usage_error ("session pin", _("--scenario-instance does not go with --tid, --from or --to"));
  return -1;
}

/* Adds @finding, on the trace the options name, to the session file at
 * @path, saves it and prints the finding's index. */
static int
pin_to_session (const char    *path,
                WsPin         *finding,
                CliPinOptions *o)
{
  g_autoptr(WsSessionFile) session = NULL;
  g_autoptr(GError) error = NULL;
  int status;

  if ((session = ws_session_file_load (path, &error)) == NULL)
    return cli_fail (error);
  if ((status = pin_traces (session, o->traces, finding)) >= 0 ||
      (status = set_run_classes (session, finding, o->run_classes)) >= 0 ||
      (status = pin_check_traces (session, finding, o)) >= 0)
    return status;
  ws_pin_list_append (ws_session_file_get_findings (session), finding);
  /* The file the user named, never a path read from inside it. */
  if (!ws_session_file_save (session, path, &error))
    return cli_fail (error);
  printf ("%u\n", ws_pin_list_get_n (ws_session_file_get_findings (session)) - 1);
  return CLI_EXIT_OK;
}

static int
session_pin (int    argc,
             char **argv)
{
  g_autoptr(GOptionContext) context = g_option_context_new (_("SESSION --view KIND … — pin a view to the session's findings"));
  CliPinOptions o = { .tid = G_MININT, .event = -1, .scenario_instance = -1, .cluster = -1, .pattern = -1 };
  int status;
  const GOptionEntry entries[] = {
    { "view", 0, 0, G_OPTION_ARG_STRING, &o.view, N_("timeline, wait-graph, ready-tree, critical-path, anomaly-model, attribution, alignment, coverage, contrast, awg or flame-graph"), N_("KIND") },
    { "trace", 0, 0, G_OPTION_ARG_FILENAME_ARRAY, &o.traces, N_("The session's trace N (default 0), or a trace file to add; repeat for the views over several traces"), N_("N|FILE") },
    { "tid", 0, 0, G_OPTION_ARG_INT, &o.tid, N_("The thread"), N_("TID") },
    { "from", 0, 0, G_OPTION_ARG_STRING, &o.from, N_("Start of the window (seconds as perf prints them, or with a unit)"), N_("TIME") },
    { "to", 0, 0, G_OPTION_ARG_STRING, &o.to, N_("End of the window, or +DURATION after --from"), N_("TIME") },
    { "event", 0, 0, G_OPTION_ARG_INT64, &o.event, N_("The root wait of a ready tree, or the wait of an anomaly model (an event index)"), N_("INDEX") },
    { "scenario-instance", 0, 0, G_OPTION_ARG_INT, &o.scenario_instance, N_("Scenario instance N as thread and window"), "N" },
    { "chain-metric", 0, 0, G_OPTION_ARG_STRING, &o.chain_metric, N_("Ready tree: average, median, total, count or max"), N_("METRIC") },
    { "lock-only", 0, 0, G_OPTION_ARG_NONE, &o.lock_only, N_("Ready tree: lock-related waits only"), NULL },
    { "cluster", 0, 0, G_OPTION_ARG_INT, &o.cluster, N_("Alignment: the cluster, from 0 (the Mining page’s cluster N+1)"), "N" },
    { "title", 0, 0, G_OPTION_ARG_STRING, &o.title, N_("The finding's title"), N_("TEXT") },
    { "note", 0, 0, G_OPTION_ARG_STRING, &o.note, N_("Its note (*em*, **strong**, `code`, “- ” list items)"), N_("TEXT") },
    { NULL }
  };

  g_option_context_set_translation_domain (context, GETTEXT_PACKAGE);
  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);
  g_option_context_add_group (context, cli_pin_view_options (&o));
  if (cli_parse_options (context, "session pin", &argc, &argv, &status) &&
      (status = check_pin_args (argc, &o)) < 0)
    {
      g_autoptr(WsPin) finding = ws_pin_new (o.view);

      if ((status = pin_fill (finding, &o)) < 0)
        status = pin_to_session (argv[1], finding, &o);
    }
  cli_pin_options_clear (&o);
  return status;
}

static int
session_show (int    argc,
              char **argv)
{
  g_autoptr(GOptionContext) context = g_option_context_new (_("SESSION — the traces and findings of a session file"));
  g_autoptr(WsSessionFile) session = NULL;
  g_autoptr(GError) error = NULL;
  WsPinList *list;
  gboolean json = FALSE;
  int status;
  const GOptionEntry entries[] = {
    { "json", 0, 0, G_OPTION_ARG_NONE, &json, N_("Print the session document as JSON"), NULL },
    { NULL }
  };

  g_option_context_set_translation_domain (context, GETTEXT_PACKAGE);
  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);
  if (!cli_parse_options (context, "session show", &argc, &argv, &status))
    return status;
  if (argc != 2)
    return cli_usage_error ("session show", _("give one session file"));
  session = ws_session_file_load (argv[1], &error);
  if (session == NULL)
    return cli_fail (error);
  if (json)
    {
      g_autofree char *data = ws_session_file_to_data (session);
      fputs (data, stdout);
      return CLI_EXIT_OK;
    }
  printf ("%s\n", ws_session_file_get_title (session));
  for (guint i = 0; i < ws_session_file_get_n_traces (session); i++)
    {
      WsRunClass klass;

      printf (_("  trace %u  %s  %s"), i, ws_session_file_get_trace (session, i)->name,
              ws_session_file_get_trace (session, i)->path);
      /* Translators: after a trace, its class in a fleet (slow, fast, none) */
      if (ws_session_file_get_trace_class (session, i, &klass))
        printf (_("  (class: %s)"), ws_run_class_to_string (klass));
      putchar ('\n');
    }
  list = ws_session_file_get_findings (session);
  for (guint i = 0; i < ws_pin_list_get_n (list); i++)
    {
      WsPin *f = ws_pin_list_get (list, i);
      printf ("  %2u. %-14s %s\n", i, ws_pin_get_kind (f), ws_pin_get_title (f));
    }
  return CLI_EXIT_OK;
}

int cli_session (int argc, char **argv);

int
cli_session (int    argc,
             char **argv)
{
  if (argc >= 2 && g_str_equal (argv[1], "new"))
    return session_new (argc - 1, argv + 1);
  if (argc >= 2 && g_str_equal (argv[1], "pin"))
    return session_pin (argc - 1, argv + 1);
  if (argc >= 2 && g_str_equal (argv[1], "show"))
    return session_show (argc - 1, argv + 1);
  if (argc >= 2 && (g_str_equal (argv[1], "--help") || g_str_equal (argv[1], "-h")))
    {
      printf ("%s\n", _("Usage: waitscope-cli session new|pin|show … (each has --help)"));
      return CLI_EXIT_OK;
    }
  return cli_usage_error ("session", _("expected new, pin or show"));
}
