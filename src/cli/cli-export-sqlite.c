/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * waitscope-cli export-sqlite TRACE -o TRACE.db: the trace as an SQLite
 * database with the schema of docs/sql.md, written atomically.
 */
#include "config.h"

#include <glib/gi18n.h>

#include "cli-commands.h"
#include "cli-common.h"
#include "ws-trace-db.h"

static gboolean
save (WsTrace       *trace,
      const char    *path,
      GCancellable  *cancellable,
      GError       **error)
{
  return ws_trace_db_save (trace, path, cancellable, NULL, NULL, error);
}

int
cli_export_sqlite (int    argc,
                   char **argv)
{
  const CliTraceWriter writer = {
    .command = "export-sqlite",
    .parameter = _("TRACE -o OUT.db — the trace as an SQLite database (tables and views: docs/sql.md)"),
    .output_help = N_("Write the database here (replaced only once complete)"),
    .no_input = _("no trace given"),
    .many_inputs = _("give one trace"),
    .no_output = _("no output file given (-o OUT.db)"),
    .save = save,
  };

  return cli_write_trace (&writer, argc, argv);
}
