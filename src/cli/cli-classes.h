/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

/*
 * Classes of whole traces on the command line, for `contrast`, `mine` and
 * `cluster`: --slow TRACE and --fast TRACE (repeatable), or --classes
 * FILE.csv (a latency or a slow/fast label per trace, see
 * ws_trace_classes_read_csv()).
 */
#include <glib.h>

#include "ws-trace-classes.h"

G_BEGIN_DECLS

typedef struct {
  char  **slow;
  char  **fast;
  char   *file;
  GArray *classes;   /* WsRunClass per trace, after cli_classes_paths() */
  GArray *entries;   /* WsRunClassEntry of the traces of a class, likewise */
} CliClasses;

void     cli_classes_add_entries (GOptionGroup *group,
                                  CliClasses   *classes);
gboolean cli_classes_given       (CliClasses   *classes);
/* The traces to load: @positional (class none), then the fast, then the
 * slow ones, then the classes file's; fills @classes->classes.  %NULL
 * with the exit status in @status on a bad classes file. */
GStrv    cli_classes_paths       (const char   *command,
                                  CliClasses   *classes,
                                  char        **positional,
                                  int          *status);
void     cli_classes_clear       (CliClasses   *classes);

G_END_DECLS
