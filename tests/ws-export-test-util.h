/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

/*
 * What the tests of the results' JSON exports (ws-*-export.h) share: a
 * real trace of tests/data loaded in-process, the same trace with thread
 * and frame names that are not UTF-8, and the text a writer makes of an
 * export, checked to be valid UTF-8 JSON and parsed back.
 */
#include <stdio.h>

#include <json-glib/json-glib.h>

#include "ws-trace.h"

G_BEGIN_DECLS

WsTrace    *ws_export_test_load       (const char *name);
/* py-locks with "pylk-" thread names and the "schedule" frames rewritten
 * with bytes that are not UTF-8 (0xff 0xfe, a lone 0xc3). */
WsTrace    *ws_export_test_load_bad   (void);
/* Trace @name of tests/data with every @from rewritten @to, and the
 * "schedule" frames as in ws_export_test_load_bad(), loaded from a path
 * that is not UTF-8. */
WsTrace    *ws_export_test_load_rewritten (const char *name,
                                           const char *from,
                                           const char *to);
/* @text must be valid UTF-8 and parse as a JSON object: its root. */
JsonNode   *ws_export_test_parse      (const char *text);
/* ws_json_text_from_node() of @node, then ws_export_test_parse(). */
JsonNode   *ws_export_test_round_trip (JsonNode   *node);
/* What @write (a WsJsonStream writer) printed into a memory stream. */
char       *ws_export_test_capture    (void      (*write) (FILE *out, gpointer data),
                                       gpointer    data);
/* "tid t0 t1" of every transaction of @trace (the built-in rule: a
 * transaction__start followed on its thread by a commit or an abort, no
 * other start between), recounted from the marker events alone; each
 * duration appended to @durations (WsTime). (element-type utf8) */
GPtrArray  *ws_export_test_recount_transactions (WsTrace *trace,
                                                 GArray  *durations);

G_END_DECLS
