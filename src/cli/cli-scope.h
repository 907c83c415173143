/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

/*
 * A selection of a trace given on the command line: --window A:B and
 * --tid N (repeated, or N,M,…), as `flamegraph` and `collapse` take them.
 */

#include "ws-trace.h"

G_BEGIN_DECLS

typedef struct {
  gboolean has_window;
  WsTime   start;
  WsTime   end;
  GArray  *threads;     /* guint thread indices, or NULL: every thread */
} CliScope;

int  cli_scope_parse_window (const char  *command,
                             const char  *text,
                             CliScope    *scope);
int  cli_scope_resolve_tids (const char  *trace_path,
                             WsTrace     *trace,
                             char       **tids,
                             CliScope    *scope);
void cli_scope_clear        (CliScope    *scope);

G_END_DECLS
