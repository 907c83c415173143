/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * waitscope-cli report SESSION -o FILE.html|FILE.pdf: the session's
 * findings redrawn from their traces, headless (the GUI's export does the
 * same through WsReport).
 */
#include "config.h"

#include <glib/gi18n.h>
#include <stdio.h>

#include "cli-common.h"
#include "ws-report.h"

int cli_report (int argc, char **argv);

int
cli_report (int    argc,
            char **argv)
{
  g_autoptr(GOptionContext) context = g_option_context_new (_("SESSION -o FILE.html|FILE.pdf — the findings as a report"));
  g_autoptr(WsSessionFile) session = NULL;
  g_autoptr(WsReport) report = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *output = NULL;
  g_autofree char *lower = NULL;
  gboolean dark = FALSE;
  int status;
  const GOptionEntry entries[] = {
    { "output", 'o', 0, G_OPTION_ARG_FILENAME, &output, N_("The report to write (.html or .pdf)"), N_("FILE") },
    { "dark", 0, 0, G_OPTION_ARG_NONE, &dark, N_("Draw the figures in the dark palette"), NULL },
    { NULL }
  };

  g_option_context_set_translation_domain (context, GETTEXT_PACKAGE);
  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);
  g_option_context_set_description (context,
    _("Redraws every finding of the session from its traces (checked by content hash): one "
      "self-contained HTML file with inline SVG figures, or a PDF with a title page, two pages "
      "per finding (figure and note; facts and stacks, caller first) and an appendix of the traces."));
  if (!cli_parse_options (context, "report", &argc, &argv, &status))
    return status;
  if (argc != 2)
    return cli_usage_error ("report", _("give one session file"));
  if (output == NULL)
    return cli_usage_error ("report", _("no output file given (-o FILE.html or FILE.pdf)"));
  lower = g_ascii_strdown (output, -1);
  if (!g_str_has_suffix (lower, ".html") && !g_str_has_suffix (lower, ".htm") && !g_str_has_suffix (lower, ".pdf"))
    return cli_usage_error ("report", _("“%s”: the name must end in .html or .pdf"), output);

  session = ws_session_file_load (argv[1], &error);
  if (session == NULL)
    return cli_fail (error);
  report = ws_report_new (session, &error);
  if (report == NULL)
    return cli_fail (error);
  ws_report_set_dark (report, dark);
  for (guint i = 0; i < ws_pin_list_get_n (ws_session_file_get_findings (session)); i++)
    {
      const char *why = NULL;
      if (ws_report_get_figure (report, i, &why) == NULL)
        fprintf (stderr, _("waitscope-cli: %s: finding %u is shown without its figure: %s\n"), argv[1], i, why);
    }
  if (!ws_report_write (report, output, &error))
    return cli_fail (error);
  return CLI_EXIT_OK;
}
