/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

/*
 * What `waitscope-cli mine` and `cluster` share: the AOI, λ and history
 * options turned into WsMiningSettings, the traces loaded, and the core's
 * one mining run (ws_mining_run(), which the GUI's Mining page calls too).
 */

#include <json-glib/json-glib.h>

#include "cli-classes.h"
#include "ws-history-store.h"
#include "ws-miner.h"
#include "ws-mining-export.h"
#include "ws-mining-run.h"

G_BEGIN_DECLS

typedef struct {
  gboolean   running;
  gboolean   waiting;
  char     **must;
  char     **must_not;
  char      *scope;
  gboolean   per_instance;
  char      *lambda;
  double     lambda_share;
  char      *lambda_delay;
  int        top;
  gboolean   json;
  char      *history;
  gboolean   no_history;
  gboolean   by_cause;
  char     **scenarios;
  char      *scenario_file;
  CliClasses classes;
  char      *rank;         /* mine's --rank */
} CliMineOptions;

/* The run's result, with its members at hand (borrowed from @run). */
typedef struct {
  WsMiningResult *run;
  GPtrArray      *traces;       /* WsTrace */
  WsStackDb      *db;
  WsPatternSet   *patterns;
  WsHistoryStore *history;      /* nullable */
  gint64          lambda;
  gint64          total_delay;
  guint           n_recorded;   /* traces newly added to the history */
} CliMineResult;

void  cli_mine_options_init    (CliMineOptions  *options);
void  cli_mine_options_clear   (CliMineOptions  *options);
void  cli_mine_add_entries     (GOptionContext  *context,
                                CliMineOptions  *options);
int   cli_mine_run             (const char      *command,
                                CliMineOptions  *options,
                                WsMiningSettings *settings,
                                int              argc,
                                char           **argv,
                                CliMineResult   *result);
void  cli_mine_result_clear    (CliMineResult   *result);

void  cli_mine_export_options  (CliMineOptions        *options,
                                CliMineResult         *result,
                                WsMiningExportOptions *export,
                                char                 **note);
/* The note saying what the default scope left out, or that a scenario
 * scope matched nothing; nothing when there is nothing to say. */
void  cli_mine_print_scope_note (CliMineOptions *options,
                                 CliMineResult  *result);
/* "  +12.0 ms per slow trace": the pattern's discriminative score. */
char *cli_mine_format_discriminative (gint64     score);
void  cli_mine_print_frames    (WsStackTable    *table,
                                const WsFrameId *frames,
                                guint            n_frames,
                                const char      *indent);

G_END_DECLS
