/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * waitscope-cli (the real binary, env WS_CLI) on bad input, for every
 * subcommand: exit status 2 for a usage error (found before any trace is
 * read), 1 for input that cannot be read, with a message naming the file
 * (and the line, once there is one); a missing file, a directory, an
 * empty file, a 1 GB sparse file of zeros (refused as binary at once, not
 * read); standard input ("-") and FIFOs; and an existing output that a
 * failed convert leaves as it was.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <gio/gio.h>
#include <glib/gstdio.h>

#include "ws-cli-test-util.h"

static char *tmp_dir;

static char *
tmp_path (const char *name)
{
  return g_build_filename (tmp_dir, name, NULL);
}

/* Runs waitscope-cli with @args (NULL-terminated), standard input from
 * @stdin_path (or nothing), and logs how it ended.  Whatever the input,
 * what it prints is UTF-8. */
static void
run_cli_v (WsCliRun           *run,
           const char         *stdin_path,
           const char * const *args)
{
  ws_cli_run_full (run, NULL, stdin_path, args);
  g_assert_true (g_utf8_validate (run->out, -1, NULL));
  g_assert_true (g_utf8_validate (run->err, -1, NULL));
  g_test_message ("status %d, %.2f s, stderr: %s", run->status, run->seconds, run->err);
}

#define run_cli(run, stdin_path, ...) \
  G_STMT_START { \
    const char * const run_args_[] = { __VA_ARGS__, NULL }; \
    run_cli_v ((run), (stdin_path), run_args_); \
  } G_STMT_END

/* The subcommands `waitscope-cli --help` lists. */
static GStrv
list_commands (void)
{
  g_auto(WsCliRun) run = { 0 };
  g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();
  g_auto(GStrv) lines = NULL;
  gboolean in_list = FALSE;

  run_cli (&run, NULL, "--help");
  g_assert_cmpint (run.status, ==, 0);
  lines = g_strsplit (run.out, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      if (g_str_has_prefix (lines[i], "  ") && in_list)
        {
          g_auto(GStrv) words = g_strsplit_set (g_strstrip (lines[i]), " ", 2);
          g_strv_builder_add (builder, words[0]);
        }
      else
        in_list = lines[i][0] != '\0' && !g_str_has_prefix (lines[i], "Usage");
    }
  return g_strv_builder_end (builder);
}

static void
test_usage_errors (void)
{
  g_auto(GStrv) commands = list_commands ();
  g_auto(WsCliRun) top = { 0 };
  g_auto(WsCliRun) unknown = { 0 };

  /* The seven of the first release at least; later ones are checked too. */
  g_assert_cmpuint (g_strv_length (commands), >=, 7);
  g_assert_true (g_strv_contains ((const char * const *) commands, "convert"));
  g_assert_true (g_strv_contains ((const char * const *) commands, "critical-path"));

  run_cli_v (&top, NULL, (const char * const[]) { NULL });
  g_assert_cmpint (top.status, ==, 2);
  run_cli (&unknown, NULL, "no-such-command");
  g_assert_cmpint (unknown.status, ==, 2);

  for (guint i = 0; commands[i] != NULL; i++)
    {
      g_auto(WsCliRun) help = { 0 };
      g_auto(WsCliRun) bare = { 0 };
      g_auto(WsCliRun) bad_option = { 0 };

      g_test_message ("command %s", commands[i]);
      run_cli (&help, NULL, commands[i], "--help");
      g_assert_cmpint (help.status, ==, 0);
      run_cli (&bare, NULL, commands[i]);
      g_assert_cmpint (bare.status, ==, 2);
      g_assert_true (g_str_has_prefix (bare.err, "waitscope-cli "));
      run_cli (&bad_option, NULL, commands[i], "--no-such-option", "trace.json");
      g_assert_cmpint (bad_option.status, ==, 2);
    }
}

/* A usage error is one whatever the file: found before anything is read. */
static void
test_usage_before_load (void)
{
  static const char * const windows[][4] = {
    { "--scenario-instance", "0", "--from", "1" },
    { "--tid", "1", "--from", "5" },           /* with --to 4 below */
    { "--tid", "1", "--to", "+-1ms" },
    { "--tid", "1", "--from", "9000000000" },   /* with --to +9000000000s */
  };
  const char *commands[] = { "waitgraph", "readytree", "critical-path", "inspect" };

  for (guint c = 0; c < G_N_ELEMENTS (commands); c++)
    for (guint w = 0; w < G_N_ELEMENTS (windows); w++)
      {
        g_auto(WsCliRun) run = { 0 };
        const char *to = w == 1 ? "4" : w == 3 ? "+9000000000s" : NULL;

        if (to != NULL)
          run_cli (&run, NULL, commands[c], windows[w][0], windows[w][1], windows[w][2], windows[w][3],
                   "--to", to, "/nonexistent/trace.json");
        else
          run_cli (&run, NULL, commands[c], windows[w][0], windows[w][1], windows[w][2], windows[w][3],
                   "/nonexistent/trace.json");
        g_assert_cmpint (run.status, ==, 2);
        g_assert_null (strstr (run.err, "nonexistent"));
      }

  /* export-timeline's own options, where it is built. */
  {
    g_auto(GStrv) listed = list_commands ();
    static const char * const bad_exports[][6] = {   /* NULL-terminated rows */
      { "export-timeline", "/nonexistent/trace.json" },
      { "export-timeline", "-o", "figure.gif", "/nonexistent/trace.json" },
      { "export-timeline", "-o", "figure.png", "--width=5", "/nonexistent/trace.json" },
    };

    if (g_strv_contains ((const char * const *) listed, "export-timeline"))
      for (guint i = 0; i < G_N_ELEMENTS (bad_exports); i++)
        {
          g_auto(WsCliRun) run = { 0 };

          run_cli_v (&run, NULL, bad_exports[i]);
          g_assert_cmpint (run.status, ==, 2);
          g_assert_null (strstr (run.err, "nonexistent"));
        }
  }

  /* mine and cluster: a malformed λ is a usage error, found before loading. */
  {
    static const char * const bad_mining[][5] = {   /* NULL-terminated rows */
      { "mine", "--lambda=abc", "/nonexistent/trace.json" },
      { "mine", "--lambda-delay=12 ms", "/nonexistent/trace.json" },
      { "cluster", "--lambda=abc", "/nonexistent/trace.json" },
    };

    for (guint i = 0; i < G_N_ELEMENTS (bad_mining); i++)
      {
        g_auto(WsCliRun) run = { 0 };

        run_cli_v (&run, NULL, bad_mining[i]);
        g_assert_cmpint (run.status, ==, 2);
        g_assert_null (strstr (run.err, "nonexistent"));
      }
  }
}

/* Each command with the options it needs, TRACE standing for the file. */
static const char * const file_commands[][6] = {
  { "info", "TRACE" },
  { "scenarios", "TRACE" },
  { "convert", "TRACE", "-o", "OUT" },
  { "waitgraph", "--tid", "1", "TRACE" },
  { "readytree", "--tid", "1", "TRACE" },
  { "critical-path", "--tid", "1", "TRACE" },
  { "inspect", "TRACE" },
};

static void
run_on_file (WsCliRun        *run,
             guint       command,
             const char *trace,
             const char *out)
{
  const char *args[7] = { NULL };

  for (guint k = 0; file_commands[command][k] != NULL; k++)
    args[k] = g_str_equal (file_commands[command][k], "TRACE") ? trace
              : g_str_equal (file_commands[command][k], "OUT") ? out
              : file_commands[command][k];
  g_test_message ("%s %s", file_commands[command][0], trace);
  run_cli_v (run, NULL, args);
}

/* Exit 1, and the message names @path, then (if @line) "LINE: ". */
static void
assert_input_error (const WsCliRun  *run,
                    const char *path,
                    guint       line,
                    const char *needle)
{
  g_autofree char *prefix = line ? g_strdup_printf ("waitscope-cli: %s:%u: ", path, line)
                                 : g_strdup_printf ("waitscope-cli: %s: ", path);

  g_assert_cmpint (run->status, ==, 1);
  g_assert_true (g_str_has_prefix (run->err, prefix));
  if (needle != NULL)
    g_assert_nonnull (strstr (run->err, needle));
}

static void
test_unreadable_files (void)
{
  g_autofree char *missing = tmp_path ("missing.perf.txt");
  g_autofree char *dir = tmp_path ("a-directory");
  g_autofree char *empty = tmp_path ("empty.perf.txt");
  g_autofree char *sparse = tmp_path ("sparse-1g.bin");
  g_autofree char *out = tmp_path ("out.json");
  int fd;

  g_assert_cmpint (g_mkdir (dir, 0755), ==, 0);
  g_assert_true (g_file_set_contents (empty, "", 0, NULL));
  /* 1 GB of zeros that take no disk: must be refused from its first
   * bytes, not read through. */
  fd = g_open (sparse, O_CREAT | O_WRONLY | O_TRUNC, 0644);
  g_assert_cmpint (fd, >=, 0);
  g_assert_cmpint (ftruncate (fd, (off_t) 1 << 30), ==, 0);
  close (fd);

  for (guint c = 0; c < G_N_ELEMENTS (file_commands); c++)
    {
      g_auto(WsCliRun) r_missing = { 0 };
      g_auto(WsCliRun) r_dir = { 0 };
      g_auto(WsCliRun) r_empty = { 0 };
      g_auto(WsCliRun) r_sparse = { 0 };

      run_on_file (&r_missing, c, missing, out);
      assert_input_error (&r_missing, missing, 0, "No such file");
      run_on_file (&r_dir, c, dir, out);
      assert_input_error (&r_dir, dir, 0, "directory");
      run_on_file (&r_empty, c, empty, out);
      assert_input_error (&r_empty, empty, 1, "empty");
      run_on_file (&r_sparse, c, sparse, out);
      assert_input_error (&r_sparse, sparse, 1, "binary");
      g_assert_cmpfloat (r_sparse.seconds, <, 5.0);
      g_assert_false (g_file_test (out, G_FILE_TEST_EXISTS));
    }

  g_unlink (sparse);
  g_unlink (empty);
  g_rmdir (dir);
}

static void
test_stdin (void)
{
  g_autofree char *trace = ws_cli_test_data_path ("build.perf.txt.gz");
  g_autofree char *empty = tmp_path ("empty-stdin");
  g_autofree char *out = tmp_path ("from-stdin.json");
  g_auto(WsCliRun) info = { 0 };
  g_auto(WsCliRun) convert = { 0 };
  g_auto(WsCliRun) from_json = { 0 };
  g_auto(WsCliRun) nothing = { 0 };

  /* gzip'd perf text on standard input, as `perf script | gzip | …` */
  run_cli (&info, trace, "info", "-");
  g_assert_cmpint (info.status, ==, 0);
  g_assert_true (g_str_has_prefix (info.out, "stdin"));
  g_assert_nonnull (strstr (info.out, "8069"));    /* the events of build */

  run_cli (&convert, trace, "convert", "-", "-o", out);
  g_assert_cmpint (convert.status, ==, 0);
  /* And the JSON it wrote, on standard input again. */
  run_cli (&from_json, out, "info", "-");
  g_assert_cmpint (from_json.status, ==, 0);
  g_assert_nonnull (strstr (from_json.out, "8069"));

  g_assert_true (g_file_set_contents (empty, "", 0, NULL));
  run_cli (&nothing, empty, "info", "-");
  assert_input_error (&nothing, "stdin", 1, "empty");

  g_unlink (out);
  g_unlink (empty);
}

typedef struct {
  char       *fifo;
  const char *contents;
  gsize       len;
} FifoWriter;

static gpointer
fifo_writer (gpointer data)
{
  FifoWriter *w = data;
  int fd = g_open (w->fifo, O_WRONLY, 0);
  gsize done = 0;

  /* The reader may stop early (bad input): EPIPE ends the writing. */
  while (fd >= 0 && done < w->len)
    {
      gssize n = write (fd, w->contents + done, w->len - done);
      if (n <= 0)
        break;
      done += n;
    }
  if (fd >= 0)
    close (fd);
  return NULL;
}

static void
run_on_fifo (WsCliRun        *run,
             const char *contents,
             gsize       len,
             const char *command)
{
  g_autofree char *fifo = tmp_path ("trace.fifo");
  FifoWriter w = { fifo, contents, len };
  GThread *thread;
  int fd;

  g_assert_cmpint (mkfifo (fifo, 0644), ==, 0);
  thread = g_thread_new ("fifo-writer", fifo_writer, &w);
  run_cli (run, NULL, command, fifo);
  /* If the CLI never opened the FIFO, let the writer's open return. */
  fd = g_open (fifo, O_RDONLY | O_NONBLOCK, 0);
  g_thread_join (thread);
  if (fd >= 0)
    close (fd);
  g_unlink (fifo);
}

static void
test_fifo (void)
{
  g_autofree char *trace = ws_cli_test_data_path ("build.perf.txt.gz");
  g_autofree char *contents = NULL;
  gsize len;
  g_auto(WsCliRun) good = { 0 };
  g_auto(WsCliRun) garbage = { 0 };
  g_autofree char *fifo = tmp_path ("trace.fifo");
  char bytes[10000];

  signal (SIGPIPE, SIG_IGN);
  g_assert_true (g_file_get_contents (trace, &contents, &len, NULL));

  /* Read once: the first bytes sniffed are not lost to the importer. */
  run_on_fifo (&good, contents, len, "info");
  g_assert_cmpint (good.status, ==, 0);
  g_assert_nonnull (strstr (good.out, "8069"));

  memset (bytes, 0, sizeof bytes);
  memcpy (bytes, "perf  1/1  [000]  1.0:  1 cpu-clock:\n", 37);
  run_on_fifo (&garbage, bytes, sizeof bytes, "info");
  assert_input_error (&garbage, fifo, 2, "binary");
}

/* A convert that fails leaves the file it would have replaced alone. */
static void
test_convert_keeps_output (void)
{
  g_autofree char *bad = tmp_path ("bad.perf.txt");
  g_autofree char *out = tmp_path ("precious.json");
  g_autofree char *nowhere = tmp_path ("no-such-dir/out.json");
  g_autofree char *good = ws_cli_test_data_path ("hand-built.json");
  g_autofree char *contents = NULL;
  g_auto(WsCliRun) failed = { 0 };
  g_auto(WsCliRun) unwritable = { 0 };

  g_assert_true (g_file_set_contents (bad, "perf  1/1  [000]  1.000000:  1 sched:sched_switch: prev_comm=x\n", -1, NULL));
  g_assert_true (g_file_set_contents (out, "precious", -1, NULL));
  run_cli (&failed, NULL, "convert", bad, "-o", out);
  assert_input_error (&failed, bad, 1, "prev_pid");
  g_assert_true (g_file_get_contents (out, &contents, NULL, NULL));
  g_assert_cmpstr (contents, ==, "precious");

  run_cli (&unwritable, NULL, "convert", good, "-o", nowhere);
  assert_input_error (&unwritable, nowhere, 0, NULL);

  g_unlink (bad);
  g_unlink (out);
}

/* --scenario-file and --classifier files: the line at fault, exit 1. */
static void
test_settings_files (void)
{
  static const struct {
    const char *option;
    const char *contents;
    guint       line;
    const char *needle;
  } cases[] = {
    { "--scenario-file", "# rules\n[scenario ok]\nbegin=a:b\nend=c:d\n\n[scenario bad]\nbegin=x y\nend=e:f\n", 7, "invalid begin event" },
    { "--scenario-file", "[scenario ok]\nbegin=a:b\nend=c:d\ngarbage here\n", 4, "garbage here" },
    { "--scenario-file", "\n[scenario no-begin]\nend=c:d\n", 2, "begin" },
    { "--scenario-file", "[scenario x]\nbegin=a\nend=\n", 3, "end events" },
    { "--scenario-file", "[scenario x]\nbegin=a\n\0end=b\n", 3, "binary" },
    { "--classifier", "[other]\nx=1\n\n[classifier]\nlock-frames=^a$;\nlock-frames-extra=(;\n", 6, "Invalid pattern" },
    { "--classifier", "[classifier]\nfalse-run-frames=^x$\nheartbeat-threads=^ksoftirqd/\\d+$;\n", 3, "\\\\d" },
    { "--classifier", "[classifier]\n\n# typo\nlock-frame=x\n", 4, "Unknown key" },
    { "--classifier", "lock-frames=x\n", 1, NULL },
  };
  g_autofree char *trace = g_build_filename (g_getenv ("WS_TEST_DATA"), "..", "fuzz", "corpus", "perf-text",
                                             "pg-tpcb-transaction.txt", NULL);
  g_autofree char *path = tmp_path ("settings.ini");

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_auto(WsCliRun) run = { 0 };
      gsize len = strlen (cases[i].contents);

      /* The NUL case: the text goes on after it. */
      if (strstr (cases[i].needle ? cases[i].needle : "", "binary") != NULL)
        len += 1 + strlen (cases[i].contents + len + 1);
      g_assert_true (g_file_set_contents (path, cases[i].contents, len, NULL));
      if (g_str_equal (cases[i].option, "--classifier"))
        run_cli (&run, NULL, "waitgraph", "--tid", "9056", cases[i].option, path, trace);
      else
        run_cli (&run, NULL, "scenarios", cases[i].option, path, trace);
      assert_input_error (&run, path, cases[i].line, cases[i].needle);
    }
  g_unlink (path);
}

int
main (int   argc,
      char *argv[])
{
  int status;

  g_test_init (&argc, &argv, NULL);
  tmp_dir = g_dir_make_tmp ("ws-cli-bad-input-XXXXXX", NULL);
  g_assert_nonnull (tmp_dir);

  g_test_add_func ("/cli-bad-input/usage-errors", test_usage_errors);
  g_test_add_func ("/cli-bad-input/usage-before-load", test_usage_before_load);
  g_test_add_func ("/cli-bad-input/unreadable-files", test_unreadable_files);
  g_test_add_func ("/cli-bad-input/stdin", test_stdin);
  g_test_add_func ("/cli-bad-input/fifo", test_fifo);
  g_test_add_func ("/cli-bad-input/convert-keeps-output", test_convert_keeps_output);
  g_test_add_func ("/cli-bad-input/settings-files", test_settings_files);

  status = g_test_run ();
  g_rmdir (tmp_dir);
  g_free (tmp_dir);
  return status;
}
