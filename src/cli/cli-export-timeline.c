/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * waitscope-cli export-timeline TRACE -o FILE.png|svg|pdf: the thread
 * timeline as a figure, drawn by the same renderer as the application
 * (every row, the chosen span, a legend underneath).  With --tid the
 * --from/--to window of that thread is drawn selected.
 */
#include "config.h"

#include <glib/gi18n.h>
#include <stdio.h>

#include "cli-commands.h"
#include "cli-common.h"
#include "cli-symptom.h"
#include "ws-export.h"

int
cli_export_timeline (int    argc,
                     char **argv)
{
  static const char * const formats[] = { "auto", NULL };
  g_autoptr(GOptionContext) context = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(WsTrace) trace = NULL;
  g_autoptr(WsFrameClassifier) classifier = NULL;
  g_autoptr(WsTimelineLod) lod = NULL;
  g_autoptr(WsTimelineLayout) layout = NULL;
  g_autoptr(WsTimelineViewport) viewport = NULL;
  g_autoptr(WsTimelineRenderer) renderer = NULL;
  CliSymptomOptions options;
  WsSymptom symptom;
  WsExportFormat format;
  int width = 1600;
  gboolean dark = FALSE;
  int status;
  const GOptionEntry entries[] = {
    { "width", 0, 0, G_OPTION_ARG_INT, &width, N_("Figure width in pixels (PNG) or points (default 1600)"), N_("WIDTH") },
    { "dark", 0, 0, G_OPTION_ARG_NONE, &dark, N_("Use the dark palette"), NULL },
    { NULL }
  };

  cli_symptom_options_init (&options);
  context = g_option_context_new (_("[TRACE] -o FILE.png|FILE.svg|FILE.pdf — the thread timeline as a figure"));
  g_option_context_set_translation_domain (context, GETTEXT_PACKAGE);
  cli_symptom_add_entries (context, &options);
  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);
  g_option_context_set_description (context,
    _("Draws every thread of the trace over --from/--to (default: the whole trace): runs solid, "
      "waits dashed by state, dotted when no wake-up was recorded.  The format follows the "
      "extension of -o.  With --tid, that thread's window is drawn selected."));

  if (!cli_parse_options (context, "export-timeline", &argc, &argv, &status))
    goto out;
  /* Usage errors first: a missing -o is one whatever the trace. */
  if (options.output == NULL)
    {
      status = cli_usage_error ("export-timeline", _("no output file given (-o FILE.png, .svg or .pdf)"));
      goto out;
    }
  if (!ws_export_format_from_path (options.output, &format))
    {
      status = cli_usage_error ("export-timeline", _("“%s”: the name must end in .png, .svg or .pdf"), options.output);
      goto out;
    }
  if (width < 320 || width > 20000)
    {
      status = cli_usage_error ("export-timeline", _("--width must be between 320 and 20000"));
      goto out;
    }
  status = cli_symptom_resolve ("export-timeline", &options, argc, argv, FALSE, formats,
                                &trace, &symptom, &classifier);
  if (status >= 0)
    goto out;

  lod = ws_timeline_lod_new (trace, NULL, &error);
  if (lod == NULL)
    {
      status = cli_fail (error);
      goto out;
    }
  layout = ws_timeline_layout_new (trace);
  viewport = ws_timeline_viewport_new ();
  ws_timeline_viewport_set_bounds (viewport, ws_trace_get_start_time (trace), ws_trace_get_end_time (trace));
  ws_timeline_viewport_set_visible (viewport, symptom.t0, MAX (symptom.t1, symptom.t0 + WS_TIMELINE_MIN_SPAN));
  if (symptom.thread != WS_NONE)
    ws_timeline_viewport_set_selection (viewport, symptom.thread, symptom.t0, symptom.t1);

  renderer = ws_timeline_renderer_new ();
  if (dark)
    {
      WsTimelinePalette palette;
      ws_timeline_palette_init_dark (&palette);
      ws_timeline_renderer_set_palette (renderer, &palette);
    }

  if (!ws_export_timeline (options.output, format, renderer, lod, layout, viewport, width, &error))
    {
      status = cli_fail (error);
      goto out;
    }
  status = CLI_EXIT_OK;

out:
  cli_symptom_options_clear (&options);
  return status;
}
