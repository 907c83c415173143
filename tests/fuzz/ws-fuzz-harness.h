/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

/*
 * What every fuzz target checks, shared by the libFuzzer targets
 * (fuzz-*.c, built with -Dfuzzing=true under clang) and by the regression
 * replay test (tests/test-fuzz-regressions.c, built always), so a crash
 * found by fuzzing is replayed under the normal test suite by the very
 * same code.
 *
 * Each function feeds @data to one parser and aborts (ws_fuzz_fail())
 * when an invariant is broken: an error that does not start with
 * "NAME:LINE: ", a trace whose indices point nowhere, a trace that the
 * JSON writer cannot write or that does not read back the same, rules or
 * classifier lists that do not survive their own save/load round trip.
 * Memory errors and undefined behaviour are the sanitizers' to catch.
 */

#include <glib.h>

#include "ws-trace.h"

G_BEGIN_DECLS

/* The name the stream loaders get, hence the prefix of their messages. */
#define WS_FUZZ_INPUT_NAME "fuzz-input"

void      ws_fuzz_init             (void);

gboolean  ws_fuzz_perf_text        (const guint8 *data,
                                    gsize         size);
gboolean  ws_fuzz_folded           (const guint8 *data,
                                    gsize         size);
gboolean  ws_fuzz_tracecmd         (const guint8 *data,
                                    gsize         size);
gboolean  ws_fuzz_perfetto         (const guint8 *data,
                                    gsize         size);
gboolean  ws_fuzz_ctf              (const guint8 *data,
                                    gsize         size);
gboolean  ws_fuzz_json_trace       (const guint8 *data,
                                    gsize         size);
gboolean  ws_fuzz_scenario_rules   (const guint8 *data,
                                    gsize         size);
gboolean  ws_fuzz_classifier       (const guint8 *data,
                                    gsize         size);
gboolean  ws_fuzz_analyses         (const guint8 *data,
                                    gsize         size);
gboolean  ws_fuzz_mining           (const guint8 *data,
                                    gsize         size);
/* ws-fuzz-gmm.c */
gboolean  ws_fuzz_gmm              (const guint8 *data,
                                    gsize         size);
/* ws-fuzz-files.c */
gboolean  ws_fuzz_session_file     (const guint8 *data,
                                    gsize         size);
gboolean  ws_fuzz_history_store    (const guint8 *data,
                                    gsize         size);
gboolean  ws_fuzz_digest           (const guint8 *data,
                                    gsize         size);

void      ws_fuzz_check_error      (const GError *error,
                                    const char   *name);
void      ws_fuzz_check_trace      (WsTrace      *trace);
void      ws_fuzz_check_round_trip (WsTrace      *trace);

G_NORETURN void ws_fuzz_fail       (const char   *format,
                                    ...) G_GNUC_PRINTF (1, 2);

G_END_DECLS
