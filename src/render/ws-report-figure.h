/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "ws-export.h"
#include "ws-pin.h"
#include "ws-session-file.h"
#include "ws-wait-graph.h"

G_BEGIN_DECLS

/* One line of "the facts behind it": a label and its value.  A list of
 * them is a GPtrArray from ws_report_facts_new(), filled with
 * ws_report_facts_add(). */
typedef struct {
  char *label;
  char *value;
} WsReportFact;

/* A call stack for the reader, frames caller first. */
typedef struct {
  char      *title;
  GPtrArray *frames;   /* char*: "function (module)" */
} WsReportStack;

/**
 * WsReportFigure:
 * @recording: the view's figure, as its own export draws it
 * @facts: (element-type WsReportFact): trace, thread, window, durations…
 * @stacks: (element-type WsReportStack): the stacks that explain it
 *
 * A finding redrawn from its traces.
 */
typedef struct {
  WsExportRecording recording;
  GPtrArray        *facts;
  GPtrArray        *stacks;
} WsReportFigure;

/**
 * WsReportContext:
 * @finding: the pin
 * @traces: (element-type WsTrace): the finding's traces, loaded, in its order
 * @trace_names: (element-type utf8): their display names
 * @symptom: the thread and window on the first trace (thread WS_NONE if
 *   the pin names none; the window defaults to the whole trace)
 * @dark: draw in the dark palette (presentation on a dark screen)
 */
typedef struct {
  WsPin *finding;
  GPtrArray *traces;
  GPtrArray *trace_names;
  WsSymptom  symptom;
  gboolean   dark;
} WsReportContext;

typedef gboolean (*WsReportFigureBuilder) (const WsReportContext *context,
                                           WsReportFigure        *figure,
                                           GError               **error);

void            ws_report_figure_register  (const char             *kind,
                                            WsReportFigureBuilder   builder);
gboolean        ws_report_figure_can_draw  (const char             *kind);
WsReportFigure *ws_report_figure_build     (const WsReportContext  *context,
                                            GError                **error);
void            ws_report_figure_free      (WsReportFigure         *figure);
gboolean        ws_report_context_init     (WsReportContext        *context,
                                            WsPin              *finding,
                                            GPtrArray              *traces,
                                            GPtrArray              *trace_names,
                                            GError                **error);

GPtrArray      *ws_report_facts_new        (void);
void            ws_report_facts_add        (GPtrArray              *facts,
                                            const char             *label,
                                            const char             *value);
void            ws_report_figure_add_fact  (WsReportFigure         *figure,
                                            const char             *label,
                                            const char             *value);
void            ws_report_figure_add_stack (WsReportFigure         *figure,
                                            const char             *title,
                                            WsStackTable           *table,
                                            WsStackId               stack);
char           *ws_report_format_thread    (WsTrace                *trace,
                                            guint                   thread);
char           *ws_report_format_time      (WsTime                  ns);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (WsReportFigure, ws_report_figure_free)

G_END_DECLS
