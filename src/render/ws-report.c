/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The report over a session: traces checked and loaded, figures built
 * lazily and kept, the facts every finding shares (view, trace, thread,
 * window).  The two writers live in ws-report-html.c and ws-report-pdf.c.
 */
#include "config.h"

#include <glib/gi18n-lib.h>

#include "ws-error.h"
#include "ws-pin-kind.h"
#include "ws-report-private.h"
#include "ws-scenario-rules.h"
#include "ws-time-format.h"
#include "ws-trace-loader.h"

G_DEFINE_FINAL_TYPE (WsReport, ws_report, G_TYPE_OBJECT)

/* A trace no finding uses is a NULL slot: g_object_unref() would warn
 * ("assertion 'G_IS_OBJECT (object)' failed" on every such report). */
static void
trace_unref (gpointer trace)
{
  if (trace != NULL)
    g_object_unref (trace);
}

static void
ws_report_finalize (GObject *object)
{
  WsReport *self = WS_REPORT (object);

  g_clear_object (&self->session);
  g_clear_pointer (&self->traces, g_ptr_array_unref);
  g_clear_pointer (&self->figures, g_ptr_array_unref);
  g_clear_pointer (&self->errors, g_ptr_array_unref);

  G_OBJECT_CLASS (ws_report_parent_class)->finalize (object);
}

static void
ws_report_class_init (WsReportClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = ws_report_finalize;
}

static void
ws_report_init (WsReport *self)
{
}

static gboolean
trace_is_used (WsSessionFile *session,
               guint          index)
{
  WsPinList *list = ws_session_file_get_findings (session);

  for (guint i = 0; i < ws_pin_list_get_n (list); i++)
    {
      WsPin *f = ws_pin_list_get (list, i);
      for (guint k = 0; k < ws_pin_get_n_traces (f); k++)
        if (ws_pin_get_trace (f, k) == index)
          return TRUE;
    }
  return FALSE;
}

/**
 * ws_report_new:
 *
 * Checks every trace of @session (relocating moved ones as the session
 * allows) and loads those the findings use.
 *
 * Returns: (transfer full) (nullable): the report, or %NULL with @error
 *   naming the trace that is missing, different or unreadable
 */
WsReport *
ws_report_new (WsSessionFile  *session,
               GError        **error)
{
  g_autoptr(WsReport) self = g_object_new (WS_TYPE_REPORT, NULL);
  g_autoptr(WsScenarioRules) rules = ws_scenario_rules_new_default ();
  guint n_traces, n_findings;

  g_return_val_if_fail (WS_IS_SESSION_FILE (session), NULL);

  self->session = g_object_ref (session);
  n_traces = ws_session_file_get_n_traces (session);
  n_findings = ws_pin_list_get_n (ws_session_file_get_findings (session));
  self->traces = g_ptr_array_new_full (n_traces, trace_unref);
  self->figures = g_ptr_array_new_full (n_findings, (GDestroyNotify) ws_report_figure_free);
  self->errors = g_ptr_array_new_full (n_findings, g_free);
  g_ptr_array_set_size (self->figures, n_findings);
  g_ptr_array_set_size (self->errors, n_findings);

  for (guint i = 0; i < n_traces; i++)
    {
      WsTrace *trace = NULL;

      if (!ws_session_file_resolve_trace (session, i, NULL, error))
        return NULL;
      if (trace_is_used (session, i))
        {
          trace = ws_trace_loader_load_full (ws_session_file_get_trace (session, i)->path, NULL, rules,
                                             NULL, NULL, NULL, error);
          if (trace == NULL)
            return NULL;
        }
      g_ptr_array_add (self->traces, trace);
    }
  return g_steal_pointer (&self);
}

WsSessionFile *
ws_report_get_session (WsReport *self)
{
  g_return_val_if_fail (WS_IS_REPORT (self), NULL);
  return self->session;
}

/* Returns: (transfer none) (nullable): trace @index, %NULL if no finding uses it */
WsTrace *
ws_report_get_trace (WsReport *self,
                     guint     index)
{
  g_return_val_if_fail (WS_IS_REPORT (self), NULL);
  g_return_val_if_fail (index < self->traces->len, NULL);
  return g_ptr_array_index (self->traces, index);
}

/* Figures already built keep their palette; set this first. */
void
ws_report_set_dark (WsReport *self,
                    gboolean  dark)
{
  g_return_if_fail (WS_IS_REPORT (self));
  self->dark = dark;
}

static gboolean
make_context (WsReport        *self,
              WsPin       *finding,
              WsReportContext *ctx,
              GPtrArray      **traces,
              GPtrArray      **names,
              GError         **error)
{
  *traces = g_ptr_array_new ();
  *names = g_ptr_array_new ();
  for (guint k = 0; k < ws_pin_get_n_traces (finding); k++)
    {
      guint t = ws_pin_get_trace (finding, k);
      g_ptr_array_add (*traces, g_ptr_array_index (self->traces, t));
      g_ptr_array_add (*names, ws_session_file_get_trace (self->session, t)->name);
    }
  if (!ws_report_context_init (ctx, finding, *traces, *names, error))
    return FALSE;
  ctx->dark = self->dark;
  return TRUE;
}

/**
 * ws_report_get_figure:
 * @error_message: (out) (optional): why there is no figure
 *
 * Returns: (transfer none) (nullable): finding @i's figure; %NULL if it
 *   cannot be drawn (the report then shows the reason in its place)
 */
WsReportFigure *
ws_report_get_figure (WsReport    *self,
                      guint        i,
                      const char **error_message)
{
  WsPin *finding;

  g_return_val_if_fail (WS_IS_REPORT (self), NULL);
  g_return_val_if_fail (i < self->figures->len, NULL);

  finding = ws_pin_list_get (ws_session_file_get_findings (self->session), i);
  if (self->figures->pdata[i] == NULL && self->errors->pdata[i] == NULL)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(GPtrArray) traces = NULL;
      g_autoptr(GPtrArray) names = NULL;
      WsReportContext ctx;

      if (make_context (self, finding, &ctx, &traces, &names, &error))
        self->figures->pdata[i] = ws_report_figure_build (&ctx, &error);
      if (self->figures->pdata[i] == NULL)
        self->errors->pdata[i] = g_strdup (error->message);
    }
  if (error_message)
    *error_message = self->errors->pdata[i];
  return self->figures->pdata[i];
}

static void
add_trace_facts (WsReport  *self,
                 WsPin *finding,
                 GPtrArray *facts)
{
  g_autoptr(GString) names = g_string_new (NULL);

  for (guint k = 0; k < ws_pin_get_n_traces (finding); k++)
    {
      const WsSessionTrace *t = ws_session_file_get_trace (self->session, ws_pin_get_trace (finding, k));
      g_string_append_printf (names, "%s%s (%s)", k ? ", " : "", t->name, t->path);
    }
  ws_report_facts_add (facts, g_dngettext (GETTEXT_PACKAGE, "Trace", "Traces", ws_pin_get_n_traces (finding)),
            names->str);
}

/**
 * ws_report_dup_facts:
 *
 * Returns: (transfer container) (element-type WsReportFact): the view,
 *   trace, thread and window of finding @i, then its figure's own facts
 */
GPtrArray *
ws_report_dup_facts (WsReport *self,
                     guint     i)
{
  GPtrArray *facts = ws_report_facts_new ();
  WsPin *finding = ws_pin_list_get (ws_session_file_get_findings (self->session), i);
  const WsPinKindInfo *info = ws_pin_kind_lookup (ws_pin_get_kind (finding));
  WsReportFigure *figure = ws_report_get_figure (self, i, NULL);
  WsTrace *trace = NULL;
  WsTime t0, t1;

  ws_report_facts_add (facts, _("View"), info ? _(info->label) : ws_pin_get_kind (finding));
  add_trace_facts (self, finding, facts);
  if (ws_pin_get_n_traces (finding) > 0)
    trace = g_ptr_array_index (self->traces, ws_pin_get_trace (finding, 0));
  if (trace != NULL && ws_pin_get_tid (finding) != WS_PIN_NO_TID)
    {
      g_autofree char *who = ws_report_format_thread (trace, ws_trace_find_thread (trace, ws_pin_get_tid (finding)));
      ws_report_facts_add (facts, _("Thread"), who);
    }
  if (ws_pin_get_window (finding, &t0, &t1))
    {
      g_autofree char *a = ws_report_format_time (t0);
      g_autofree char *b = ws_report_format_time (t1);
      g_autofree char *d = ws_format_duration (t1 - t0);
      g_autofree char *w = g_strdup_printf (_("%s – %s (%s)"), a, b, d);
      ws_report_facts_add (facts, _("Window"), w);
    }
  if (figure != NULL)
    for (guint k = 0; k < figure->facts->len; k++)
      {
        const WsReportFact *f = g_ptr_array_index (figure->facts, k);
        ws_report_facts_add (facts, f->label, f->value);
      }
  return facts;
}

/* By the extension: .html/.htm or .pdf. */
gboolean
ws_report_write (WsReport    *self,
                 const char  *path,
                 GError     **error)
{
  g_autofree char *lower = g_ascii_strdown (path, -1);

  if (g_str_has_suffix (lower, ".html") || g_str_has_suffix (lower, ".htm"))
    return ws_report_write_html (self, path, error);
  if (g_str_has_suffix (lower, ".pdf"))
    return ws_report_write_pdf (self, path, error);
  g_set_error (error, WS_ERROR, WS_ERROR_INVALID, _("“%s”: a report is written as .html or .pdf"), path);
  return FALSE;
}
