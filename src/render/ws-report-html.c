/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The report as one self-contained HTML file: figures inline as SVG (ids
 * prefixed per figure so they cannot collide), styles inline, no script,
 * no link to anything outside the file.  Print CSS starts each finding on
 * a new page.  Notes, facts and stacks are HTML text, so they can be
 * selected and searched; the figures carry a text summary as their label.
 */
#include "config.h"

#include <glib/gi18n-lib.h>

#include "ws-atomic-file.h"
#include "ws-error.h"
#include "ws-report-note.h"
#include "ws-report-private.h"
#include "ws-time-format.h"

static const char css[] =
  "body{font-family:Cantarell,'Noto Sans','DejaVu Sans',sans-serif;color:#1e1e1e;background:#fff;"
  "max-width:72rem;margin:2rem auto;padding:0 1.5rem;line-height:1.45}"
  "h1{font-size:2rem;margin-bottom:.2rem}h2{margin-top:2.5rem;border-bottom:1px solid #ccc}"
  ".meta,.view{color:#555}figure{margin:1rem 0;overflow-x:auto}"
  "figure svg{max-width:100%;height:auto;display:block}figcaption{color:#555;font-size:.9rem}"
  ".missing{border:1px dashed #c01c28;padding:1rem;color:#c01c28}"
  ".note{font-size:1.05rem}dl.facts{display:grid;grid-template-columns:max-content 1fr;gap:.2rem 1rem}"
  "dt{font-weight:bold}dd{margin:0}.stack ol{font-family:monospace;font-size:.85rem;margin:.2rem 0 1rem}"
  "table{border-collapse:collapse;font-size:.9rem}td,th{border:1px solid #ccc;padding:.2rem .5rem;text-align:left}"
  "code{font-size:.9em}"
  "@media print{body{margin:0;max-width:none}section.finding,#appendix{break-before:page}"
  "figure{overflow:visible}a{color:inherit;text-decoration:none}}\n";

static void
append_escaped (GString    *out,
                const char *text)
{
  g_autofree char *escaped = g_markup_escape_text (text ? text : "", -1);
  g_string_append (out, escaped);
}

static void
append_title_page (GString  *out,
                   WsReport *self)
{
  WsPinList *list = ws_session_file_get_findings (self->session);
  g_autoptr(GDateTime) now = g_date_time_new_now_local ();
  g_autofree char *date = g_date_time_format (now, "%Y-%m-%d %H:%M");
  const char *title = ws_session_file_get_title (self->session);
  guint n = ws_pin_list_get_n (list);

  g_string_append (out, "<header>\n<h1>");
  append_escaped (out, *title ? title : _("Waitscope findings"));
  g_string_append (out, "</h1>\n<p class=\"meta\">");
  g_string_append_printf (out, g_dngettext (GETTEXT_PACKAGE, "%s · %u finding", "%s · %u findings", n), date, n);
  g_string_append (out, "</p>\n<ol class=\"toc\">\n");
  for (guint i = 0; i < n; i++)
    {
      g_string_append_printf (out, "<li><a href=\"#finding-%u\">", i + 1);
      append_escaped (out, ws_pin_get_title (ws_pin_list_get (list, i)));
      g_string_append (out, "</a></li>\n");
    }
  g_string_append_printf (out, "<li><a href=\"#appendix\">%s</a></li>\n</ol>\n</header>\n",
                          _("Appendix: the traces"));
}

static void
append_figure (GString    *out,
               WsReport   *self,
               guint       i,
               WsPin  *finding)
{
  const char *error_message = NULL;
  WsReportFigure *figure = ws_report_get_figure (self, i, &error_message);
  g_autofree char *prefix = g_strdup_printf ("f%u", i + 1);
  g_autofree char *svg = NULL;

  if (figure == NULL)
    {
      g_string_append (out, "<figure class=\"missing\"><p>");
      append_escaped (out, _("This view could not be redrawn: "));
      append_escaped (out, error_message);
      g_string_append (out, "</p></figure>\n");
      return;
    }
  svg = ws_export_recording_to_svg (&figure->recording, prefix);
  g_string_append_printf (out, "<figure data-view=\"%s\" role=\"img\" aria-label=\"", ws_pin_get_kind (finding));
  append_escaped (out, ws_pin_get_title (finding));
  g_string_append (out, "\">\n");
  g_string_append (out, svg);
  g_string_append_printf (out, "\n<figcaption>%s ", _("Figure"));
  g_string_append_printf (out, "%u: ", i + 1);
  append_escaped (out, ws_pin_get_title (finding));
  g_string_append (out, "</figcaption>\n</figure>\n");
}

static void
append_facts (GString  *out,
              WsReport *self,
              guint     i)
{
  g_autoptr(GPtrArray) facts = ws_report_dup_facts (self, i);
  WsReportFigure *figure = ws_report_get_figure (self, i, NULL);

  g_string_append_printf (out, "<h3>%s</h3>\n<dl class=\"facts\">\n", _("The facts behind it"));
  for (guint k = 0; k < facts->len; k++)
    {
      const WsReportFact *f = g_ptr_array_index (facts, k);
      g_string_append (out, "<dt>");
      append_escaped (out, f->label);
      g_string_append (out, "</dt><dd>");
      append_escaped (out, f->value);
      g_string_append (out, "</dd>\n");
    }
  g_string_append (out, "</dl>\n");
  if (figure == NULL || figure->stacks->len == 0)
    return;
  g_string_append_printf (out, "<h3>%s</h3>\n", _("Stacks, caller first"));
  for (guint k = 0; k < figure->stacks->len; k++)
    {
      const WsReportStack *s = g_ptr_array_index (figure->stacks, k);
      g_string_append (out, "<div class=\"stack\"><h4>");
      append_escaped (out, s->title);
      g_string_append (out, "</h4><ol>\n");
      for (guint j = 0; j < s->frames->len; j++)
        {
          g_string_append (out, "<li>");
          append_escaped (out, g_ptr_array_index (s->frames, j));
          g_string_append (out, "</li>\n");
        }
      g_string_append (out, "</ol></div>\n");
    }
}

static void
append_finding (GString  *out,
                WsReport *self,
                guint     i)
{
  WsPin *finding = ws_pin_list_get (ws_session_file_get_findings (self->session), i);
  g_autofree char *note = ws_report_note_to_html (ws_pin_get_note (finding));

  g_string_append_printf (out, "<section class=\"finding\" id=\"finding-%u\">\n<h2>%u. ", i + 1, i + 1);
  append_escaped (out, ws_pin_get_title (finding));
  g_string_append (out, "</h2>\n");
  append_figure (out, self, i, finding);
  g_string_append_printf (out, "<div class=\"note\">\n%s</div>\n", note);
  append_facts (out, self, i);
  g_string_append (out, "</section>\n");
}

static void
append_trace_row (GString              *out,
                  guint                 i,
                  const WsSessionTrace *t,
                  WsTrace              *trace)
{
  g_autofree char *size = g_format_size (t->size);

  g_string_append_printf (out, "<tr><td>%u</td><td>", i);
  append_escaped (out, t->name);
  g_string_append (out, "</td><td><code>");
  append_escaped (out, t->path);
  g_string_append_printf (out, "</code></td><td>%s</td><td><code>%s</code></td>", size, t->sha256);
  if (trace != NULL)
    {
      g_autofree char *a = ws_report_format_time (ws_trace_get_start_time (trace));
      g_autofree char *d = ws_format_duration (ws_trace_get_end_time (trace) - ws_trace_get_start_time (trace));
      g_string_append_printf (out, "<td>%s (%s)</td><td>%u</td><td>%u</td>", a, d,
                              ws_trace_get_n_threads (trace), ws_trace_get_n_events (trace));
    }
  else
    g_string_append (out, "<td colspan=\"3\">—</td>");
  g_string_append (out, "</tr>\n");
}

static void
append_appendix (GString  *out,
                 WsReport *self)
{
  g_string_append_printf (out, "<section id=\"appendix\">\n<h2>%s</h2>\n<table>\n<tr>", _("Appendix: the traces"));
  g_string_append_printf (out, "<th>#</th><th>%s</th><th>%s</th><th>%s</th><th>SHA-256</th><th>%s</th><th>%s</th><th>%s</th></tr>\n",
                          _("Name"), _("Path"), _("Size"), _("Start (duration)"), _("Threads"), _("Events"));
  for (guint i = 0; i < ws_session_file_get_n_traces (self->session); i++)
    append_trace_row (out, i, ws_session_file_get_trace (self->session, i), g_ptr_array_index (self->traces, i));
  g_string_append (out, "</table>\n</section>\n");
}

/**
 * ws_report_write_html:
 *
 * Writes the whole report as one HTML file (atomically).
 */
gboolean
ws_report_write_html (WsReport    *self,
                      const char  *path,
                      GError     **error)
{
  g_autoptr(GString) out = g_string_new (NULL);
  g_autoptr(GError) local = NULL;
  const char *title;

  g_return_val_if_fail (WS_IS_REPORT (self), FALSE);

  title = ws_session_file_get_title (self->session);
  g_string_append (out, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n");
  g_string_append (out, "<meta name=\"generator\" content=\"Waitscope " PACKAGE_VERSION "\">\n<title>");
  append_escaped (out, *title ? title : _("Waitscope findings"));
  g_string_append_printf (out, "</title>\n<style>%s</style>\n</head>\n<body>\n", css);
  append_title_page (out, self);
  for (guint i = 0; i < self->figures->len; i++)
    append_finding (out, self, i);
  append_appendix (out, self);
  g_string_append (out, "</body>\n</html>\n");

  if (!ws_atomic_file_set_contents (path, out->str, out->len, FALSE, &local))
    {
      g_set_error (error, WS_ERROR, WS_ERROR_IO, _("Could not write “%s”: %s"), path, local->message);
      return FALSE;
    }
  return TRUE;
}
