/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * waitscope-cli inspect: suspicious over-connections (unrelated processes
 * joined only through a daemon or a heartbeat thread, interrupts blamed on
 * the thread they interrupted) and under-connections (waits with no
 * recorded readier), in the wait graph of a symptom or, without --tid,
 * over the whole trace.
 */
#include "config.h"

#include <glib/gi18n.h>

#include "cli-common.h"
#include "cli-symptom.h"
#include "ws-graph-export.h"
#include "ws-inspector-run.h"

int cli_inspect (int argc, char **argv);

static char *
findings_to_text (WsTrace   *trace,
                  GPtrArray *findings)
{
  GString *out = g_string_new (NULL);

  if (findings->len == 0)
    g_string_append_printf (out, "%s\n", _("No suspicious connection found."));
  for (guint i = 0; i < findings->len; i++)
    {
      const WsFinding *f = g_ptr_array_index (findings, i);
      g_autofree char *cost = cli_format_duration (f->cost);

      g_string_append_printf (out, "%-8s %-18s %s\n", ws_severity_to_string (f->severity),
                              ws_finding_kind_to_string (f->kind), f->message);
      for (guint k = 0; k < f->events->len; k++)
        {
          guint32 e = g_array_index (f->events, guint32, k);
          const WsEvent *ev = ws_trace_get_event (trace, e);
          const WsThread *t = ws_trace_get_thread (trace, ev->thread);
          g_autofree char *when = cli_format_timestamp (ev->time);
          g_autofree char *d = cli_format_duration (ws_event_duration (ev));

          g_string_append_printf (out, "         event %-8u %s %s (%d) %s %s\n", e, when, t->name, t->tid,
                                  ws_event_kind_to_string (ev->kind), d);
        }
      if (f->count > f->events->len)
        g_string_append_printf (out, _("         … %u in all, %s\n"), f->count, cost);
    }
  return g_string_free (out, FALSE);
}

int
cli_inspect (int    argc,
             char **argv)
{
  static const char * const formats[] = { "text", "json", NULL };
  g_autoptr(GOptionContext) context = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(WsTrace) trace = NULL;
  g_autoptr(WsFrameClassifier) classifier = NULL;
  g_autoptr(WsInspectorResult) result = NULL;
  CliSymptomOptions options;
  WsInspectorSettings settings;
  WsSymptom symptom;
  int top_n = 10;
  int status;
  const GOptionEntry entries[] = {
    { "top", 0, 0, G_OPTION_ARG_INT, &top_n, N_("List at most N waits per under-connection (default 10)"), "N" },
    { NULL }
  };

  context = cli_symptom_context_new (&options, _("[TRACE] — over- and under-connections of a wait graph"),
    _("With --tid or --scenario-instance, inspects the wait graph of that symptom: processes "
      "joined only through daemon or heartbeat threads, wake-ups from interrupt context "
      "recorded in a thread, waits with no recorded readier.  Without them, the last two over "
      "the whole trace.  Formats: text (default), json."));
  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);

  if (!cli_parse_options (context, "inspect", &argc, &argv, &status))
    goto out;
  if (top_n < 0)
    {
      status = cli_usage_error ("inspect", _("--top must not be negative"));
      goto out;
    }
  status = cli_symptom_resolve ("inspect", &options, argc, argv, FALSE, formats,
                                &trace, &symptom, &classifier);
  if (status >= 0)
    goto out;

  ws_inspector_settings_init (&settings, &symptom);
  settings.options.classifier = classifier;
  settings.options.top_n = top_n;
  result = ws_inspector_run (trace, &settings, NULL, NULL, NULL, &error);
  if (result == NULL)
    {
      status = cli_fail (error);
      goto out;
    }

  if (g_str_equal (options.format, "json"))
    {
      g_autoptr(JsonNode) json = ws_graph_export_findings_json (trace, result->findings);
      status = cli_symptom_write_json (&options, json);
    }
  else
    {
      g_autofree char *text = findings_to_text (trace, result->findings);
      status = cli_symptom_write (&options, text);
    }

out:
  cli_symptom_options_clear (&options);
  return status;
}
