/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gio/gio.h>

#include "ws-trace.h"

G_BEGIN_DECLS

/**
 * WsRunClass:
 * @WS_RUN_CLASS_NONE: in neither class
 * @WS_RUN_CLASS_FAST: a fast run
 * @WS_RUN_CLASS_SLOW: a slow run
 *
 * The class of a whole trace in a fleet of runs (fleet contrast,
 * discriminative mining).
 */
typedef enum {
  WS_RUN_CLASS_NONE,
  WS_RUN_CLASS_FAST,
  WS_RUN_CLASS_SLOW,
} WsRunClass;

/**
 * WsRunClassEntry:
 * @path: the trace file (relative paths of a classes file are resolved
 *   against the file's folder)
 * @latency: its latency in milliseconds, or NAN when none given
 * @klass: its class as given, or %WS_RUN_CLASS_NONE when only a latency
 *   was (ws_trace_classes_assign() decides)
 */
typedef struct {
  char         *path;
  double        latency;
  WsRunClass  klass;
} WsRunClassEntry;

GArray     *ws_trace_classes_read_csv      (const char     *path,
                                            GError        **error);
gboolean    ws_trace_classes_assign        (GArray         *entries,
                                            double          fast_at_most,
                                            double          slow_at_least,
                                            GError        **error);
gboolean    ws_trace_classes_span_thresholds_are_medians (WsTime t_fast,
                                                          WsTime t_slow);
void        ws_trace_classes_span_thresholds
                                           (GArray         *entries,
                                            WsTime         *t_fast,
                                            WsTime         *t_slow);
const char *ws_run_class_to_string       (WsRunClass    klass);
char       *ws_trace_classes_program_of_interest
                                           (GPtrArray      *traces);

G_END_DECLS
