/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <stdarg.h>
#include <string.h>

#include "ws-cli-test-util.h"

void
ws_cli_run_clear (WsCliRun *run)
{
  g_clear_pointer (&run->out, g_free);
  g_clear_pointer (&run->err, g_free);
}

/* @bytes as a NUL-terminated string, whatever bytes it holds. */
static char *
dup_output (GBytes *bytes)
{
  gsize size = 0;
  const char *data = bytes != NULL ? g_bytes_get_data (bytes, &size) : NULL;
  char *text = g_malloc (size + 1);

  if (size > 0)
    memcpy (text, data, size);
  text[size] = '\0';
  return text;
}

/**
 * ws_cli_run_full:
 * @envp: (nullable): the environment, %NULL for the test's own
 * @stdin_path: (nullable): the file its standard input reads, %NULL for
 *   /dev/null
 * @args: the arguments after the program's name, %NULL-terminated
 *
 * Runs waitscope-cli to its end and fills @run (its output as bytes, not
 * necessarily UTF-8); fails the test if it cannot be run.
 */
void
ws_cli_run_full (WsCliRun           *run,
                 const char * const *envp,
                 const char         *stdin_path,
                 const char * const *args)
{
  ws_cli_run_in_dir (run, NULL, envp, stdin_path, args);
}

/* As ws_cli_run_full(), started in the folder @cwd (nullable: this
 * process's): for a file name relative to it. */
void
ws_cli_run_in_dir (WsCliRun           *run,
                   const char         *cwd,
                   const char * const *envp,
                   const char         *stdin_path,
                   const char * const *args)
{
  g_autoptr(GSubprocessLauncher) launcher = g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_STDOUT_PIPE |
                                                                       G_SUBPROCESS_FLAGS_STDERR_PIPE);
  g_autoptr(GSubprocess) proc = NULL;
  g_autoptr(GPtrArray) argv = g_ptr_array_new ();
  g_autoptr(GBytes) out = NULL;
  g_autoptr(GBytes) err = NULL;
  g_autoptr(GError) error = NULL;
  const char *cli = g_getenv ("WS_CLI");
  gint64 start;

  g_assert_nonnull (cli);
  g_ptr_array_add (argv, (gpointer) cli);
  for (guint i = 0; args[i] != NULL; i++)
    g_ptr_array_add (argv, (gpointer) args[i]);
  g_ptr_array_add (argv, NULL);
  if (envp != NULL)
    g_subprocess_launcher_set_environ (launcher, (char **) envp);
  g_subprocess_launcher_set_stdin_file_path (launcher, stdin_path != NULL ? stdin_path : "/dev/null");
  if (cwd != NULL)
    g_subprocess_launcher_set_cwd (launcher, cwd);

  start = g_get_monotonic_time ();
  proc = g_subprocess_launcher_spawnv (launcher, (const char * const *) argv->pdata, &error);
  g_assert_no_error (error);
  g_subprocess_communicate (proc, NULL, NULL, &out, &err, &error);
  g_assert_no_error (error);
  run->seconds = (g_get_monotonic_time () - start) / 1e6;
  run->out = dup_output (out);
  run->err = dup_output (err);
  run->status = g_subprocess_get_if_exited (proc) ? g_subprocess_get_exit_status (proc) : -1;
}

/* As ws_cli_run_full(), standard input from /dev/null. */
void
ws_cli_run_argv (WsCliRun           *run,
                 const char * const *envp,
                 const char * const *args)
{
  ws_cli_run_full (run, envp, NULL, args);
}

/**
 * ws_cli_run_valist:
 * @envp: (nullable): the environment, %NULL for the test's own
 * @first: (nullable): the first argument, %NULL for none
 * @args: the arguments after @first, up to a %NULL
 *
 * As ws_cli_run_argv(), the arguments as a va_list.
 */
void
ws_cli_run_valist (WsCliRun           *run,
                   const char * const *envp,
                   const char         *first,
                   va_list             args)
{
  g_autoptr(GPtrArray) list = g_ptr_array_new ();

  for (const char *arg = first; arg != NULL; arg = va_arg (args, const char *))
    g_ptr_array_add (list, (gpointer) arg);
  g_ptr_array_add (list, NULL);
  ws_cli_run_argv (run, envp, (const char * const *) list->pdata);
}

/* Runs waitscope-cli with the NULL-terminated arguments. */
void
ws_cli_run (WsCliRun   *run,
            const char *first,
            ...)
{
  va_list args;

  va_start (args, first);
  ws_cli_run_valist (run, NULL, first, args);
  va_end (args);
}

/* Runs waitscope-cli with the NULL-terminated arguments; returns its
 * stdout (stderr is dropped) and its exit status in @status. */
char *
ws_cli_run_stdout (int        *status,
                   const char *first,
                   ...)
{
  g_auto(WsCliRun) run = { 0 };
  va_list args;

  va_start (args, first);
  ws_cli_run_valist (&run, NULL, first, args);
  va_end (args);
  *status = run.status;
  return g_steal_pointer (&run.out);
}

/* Returns: (transfer full): @name in the test data ($WS_TEST_DATA) */
char *
ws_cli_test_data_path (const char *name)
{
  return g_build_filename (g_getenv ("WS_TEST_DATA"), name, NULL);
}

int
ws_test_run_cli (const char * const  *args,
                 char               **out,
                 char               **err)
{
  g_auto(WsCliRun) run = { 0 };

  if (g_getenv ("WS_CLI") == NULL)
    return -1;
  ws_cli_run_argv (&run, NULL, args);
  if (out != NULL)
    *out = g_steal_pointer (&run.out);
  if (err != NULL)
    *err = g_steal_pointer (&run.err);
  return run.status >= 0 ? run.status : -2;
}
