/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

/*
 * Running the real waitscope-cli (the binary named by $WS_CLI) from a
 * test, as a user would: every CLI test spawns it through these, so that
 * they all run it the same way (stdin from /dev/null, stdout and stderr
 * captured, the exit status read).
 */
#include <gio/gio.h>

G_BEGIN_DECLS

typedef struct {
  int    status;   /* the exit status; -1 if it did not exit */
  char  *out;
  char  *err;
  double seconds;  /* how long it ran */
} WsCliRun;

void  ws_cli_run_clear       (WsCliRun           *run);
G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (WsCliRun, ws_cli_run_clear)

void  ws_cli_run             (WsCliRun           *run,
                              const char         *first,
                              ...) G_GNUC_NULL_TERMINATED;
void  ws_cli_run_valist      (WsCliRun           *run,
                              const char * const *envp,
                              const char         *first,
                              va_list             args);
char *ws_cli_run_stdout      (int                *status,
                              const char         *first,
                              ...) G_GNUC_NULL_TERMINATED;
void  ws_cli_run_argv        (WsCliRun           *run,
                              const char * const *envp,
                              const char * const *args);
void  ws_cli_run_full        (WsCliRun           *run,
                              const char * const *envp,
                              const char         *stdin_path,
                              const char * const *args);
void  ws_cli_run_in_dir      (WsCliRun           *run,
                              const char         *cwd,
                              const char * const *envp,
                              const char         *stdin_path,
                              const char * const *args);
/* The analyses' tests: @args (NULL-terminated) → exit status (-1 if
 * $WS_CLI is not set, -2 if it did not exit), stdout and stderr if asked. */
int   ws_test_run_cli        (const char * const *args,
                              char              **out,
                              char              **err);
char *ws_cli_test_data_path  (const char         *name);

G_END_DECLS
