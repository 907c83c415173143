/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <stdio.h>

#include "ws-trace.h"

G_BEGIN_DECLS

/* Raised when a member changes meaning or goes; new members keep it. */
#define WS_TRACE_SUMMARY_SCHEMA_VERSION 1

/**
 * ws_trace_summary_export_json:
 * @out: where the text goes
 * @traces: the traces to describe
 * @top: how many of each trace's costliest waits to list
 *
 * The result of `info --json`, as docs/json-schemas.md lists it: what
 * each trace holds, its threads (ws_trace_summary_threads()) and its
 * costliest waits with both stacks, leaf first.  Streamed (ws-json-stream.h):
 * a million threads are a million small trees written one at a time.
 *
 * Returns: whether every byte was written
 */
gboolean ws_trace_summary_export_json (FILE           *out,
                                       WsTrace * const *traces,
                                       guint           n_traces,
                                       guint           top);

G_END_DECLS
