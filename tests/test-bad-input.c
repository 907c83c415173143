/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Bad input gets a clear error naming the file and line, never a crash
 * (DESIGN.md, quality bar).  Every bad file is generated here, in a
 * temporary directory, so the cases say exactly what is wrong with them.
 */
#include <string.h>
#include <sys/resource.h>
#include <zlib.h>

#include <glib/gstdio.h>

#include "ws-error.h"
#include "ws-perf-importer.h"

/* ------------------------------------------------------------------------ */
/* perf script text                                                           */
/* ------------------------------------------------------------------------ */

/* Three good events, five lines each event but the stackless last one. */
static const char good_text[] =
  "perf  9061/9061  [000]  1668.104726:          1 sched:sched_waking: comm=migration/0 pid=18 prio=0 target_cpu=000\n"  /* 1 */
  "\tffffffff813b4986 try_to_wake_up ([kernel.kallsyms])\n"
  "\tffffffff814755b9 cpu_stop_queue_work ([kernel.kallsyms])\n"
  "\n"
  "perf  9061/9061  [000]  1668.104773:          1 sched:sched_switch: prev_comm=perf prev_pid=9061 prev_prio=120 prev_state=D ==> next_comm=migration/0 next_pid=18 next_prio=0\n"  /* 5 */
  "\tffffffff82265488 __schedule ([kernel.kallsyms])\n"
  "\tffffffff82265df3 schedule ([kernel.kallsyms])\n"
  "\n"
  "migration/0    18/18    [000]  1668.104785:          1 sched:sched_waking: comm=perf pid=9061 prio=120 target_cpu=000\n"  /* 9 */
  "\n";

typedef struct {
  char *dir;
} Fixture;

static void
fixture_setup (Fixture       *f,
               gconstpointer  data)
{
  f->dir = g_dir_make_tmp ("ws-bad-input-XXXXXX", NULL);
  g_assert_nonnull (f->dir);
}

static void
fixture_teardown (Fixture       *f,
                  gconstpointer  data)
{
  g_autoptr(GDir) dir = g_dir_open (f->dir, 0, NULL);
  const char *name;

  while ((name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *path = g_build_filename (f->dir, name, NULL);
      g_unlink (path);
    }
  g_rmdir (f->dir);
  g_free (f->dir);
}

static char *
write_file (Fixture    *f,
            const char *name,
            const void *data,
            gsize       len)
{
  char *path = g_build_filename (f->dir, name, NULL);

  g_assert_true (g_file_set_contents (path, data, len, NULL));
  return path;
}

static char *
write_gzip (Fixture    *f,
            const char *name,
            const void *data,
            gsize       len)
{
  char *path = g_build_filename (f->dir, name, NULL);
  gzFile gz = gzopen (path, "wb6");

  g_assert_nonnull (gz);
  g_assert_cmpint (gzwrite (gz, data, len), ==, (int) len);
  g_assert_cmpint (gzclose (gz), ==, Z_OK);
  return path;
}

/*
 * Imports @path expecting @code, and a message that starts with
 * "PATH:LINE: " (@line 0: any line).
 */
static void
expect_error (const char *path,
              WsError     code,
              guint64     line)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(WsTrace) trace = ws_perf_importer_load (path, NULL, NULL, NULL, NULL, &error);
  g_autofree char *prefix = NULL;

  g_assert_null (trace);
  g_assert_error (error, WS_ERROR, code);
  g_test_message ("%s", error->message);

  if (line > 0)
    prefix = g_strdup_printf ("%s:%" G_GUINT64_FORMAT ": ", path, line);
  else
    prefix = g_strdup_printf ("%s:", path);
  g_assert_true (g_str_has_prefix (error->message, prefix));
  /* Something after the location explains it. */
  g_assert_cmpuint (strlen (error->message), >, strlen (prefix) + 10);
}

static guint64
message_line (const char *message,
              const char *path)
{
  g_assert_true (g_str_has_prefix (message, path));
  g_assert_cmpint (message[strlen (path)], ==, ':');
  return g_ascii_strtoull (message + strlen (path) + 1, NULL, 10);
}

static void
test_good_text_loads (Fixture       *f,
                      gconstpointer  data)
{
  g_autofree char *path = write_file (f, "good.txt", good_text, sizeof good_text - 1);
  g_autoptr(GError) error = NULL;
  g_autoptr(WsTrace) trace = ws_perf_importer_load (path, NULL, NULL, NULL, NULL, &error);

  /* The control case: the bad files below are this one, damaged. */
  g_assert_no_error (error);
  g_assert_cmpuint (ws_trace_count_kind (trace, WS_EVENT_WAIT), ==, 1);
  g_assert_cmpuint (ws_trace_count_kind (trace, WS_EVENT_UNWAIT), ==, 2);
}

static void
test_empty (Fixture       *f,
            gconstpointer  data)
{
  g_autofree char *empty = write_file (f, "empty.txt", "", 0);
  g_autofree char *blank = write_file (f, "blank.txt", "\n\n\n", 3);
  g_autofree char *tasks = NULL;
  g_autofree char *empty_gz = write_gzip (f, "empty.txt.gz", "", 0);
  const char task_lines[] =
    "swapper     0/0     [000]     0.000000: PERF_RECORD_FORK(1:1):(0:0)\n"
    "systemd     0/0     [000]     0.000000: PERF_RECORD_COMM: systemd:1/1\n";

  tasks = write_file (f, "tasks.txt", task_lines, sizeof task_lines - 1);
  expect_error (empty, WS_ERROR_EMPTY, 1);
  expect_error (empty_gz, WS_ERROR_EMPTY, 1);
  /* Lines, but no event in them. */
  expect_error (blank, WS_ERROR_EMPTY, 3);
  expect_error (tasks, WS_ERROR_EMPTY, 2);
}

static void
test_binary_nul (Fixture       *f,
                 gconstpointer  data)
{
  /* Good text's first three lines, then a line 4 with a NUL in it. */
  const char *line4 = strchr (strchr (strchr (good_text, '\n') + 1, '\n') + 1, '\n') + 1;
  GString *s = g_string_new_len (good_text, line4 - good_text);
  g_autofree char *path = NULL;
  g_autofree char *gz_path = NULL;
  g_autofree char *garbage_path = NULL;
  guint8 garbage[4096];
  GRand *rand = g_rand_new_with_seed (42);

  static const char nul_line[] = "\tffff \0\x01\x02 junk\n\n";
  g_string_append_len (s, nul_line, sizeof nul_line - 1);
  path = write_file (f, "nul.txt", s->str, s->len);
  gz_path = write_gzip (f, "nul.txt.gz", s->str, s->len);
  expect_error (path, WS_ERROR_BINARY, 4);
  expect_error (gz_path, WS_ERROR_BINARY, 4);

  /* Random bytes (with NULs, almost surely) from the first line. */
  for (guint i = 0; i < sizeof garbage; i++)
    garbage[i] = g_rand_int_range (rand, 0, 256);
  garbage[100] = 0;
  garbage_path = write_file (f, "garbage.bin", garbage, sizeof garbage);
  expect_error (garbage_path, WS_ERROR_BINARY, 0);

  g_rand_free (rand);
  g_string_free (s, TRUE);
}

static void
test_binary_control_bytes (Fixture       *f,
                           gconstpointer  data)
{
  /* Not text, but no NUL either: control bytes where a header should be. */
  const char bytes[] = "\x7f" "ELF\x02\x01\x01\x03\x04\x05\x06 garbage\n";
  g_autofree char *path = write_file (f, "elf.bin", bytes, sizeof bytes - 1);

  expect_error (path, WS_ERROR_BINARY, 1);
}

static void
test_not_perf_text (Fixture       *f,
                    gconstpointer  data)
{
  const char json[] = "{\"format\": \"waitscope-trace\", \"events\": []}\n";
  const char stray_frame[] = "\tffffffff82265488 __schedule ([kernel.kallsyms])\n\n";
  g_autofree char *path = write_file (f, "trace.json", json, sizeof json - 1);
  g_autofree char *stray = write_file (f, "stray.txt", stray_frame, sizeof stray_frame - 1);

  expect_error (path, WS_ERROR_PARSE, 1);
  expect_error (stray, WS_ERROR_PARSE, 1);
}

/* good_text with its line @line (1-based) replaced by @replacement. */
static char *
replace_line (guint       line,
              const char *replacement)
{
  g_auto(GStrv) lines = g_strsplit (good_text, "\n", -1);

  g_free (lines[line - 1]);
  lines[line - 1] = g_strdup (replacement);
  return g_strjoinv ("\n", lines);
}

static void
test_missing_fields (Fixture       *f,
                     gconstpointer  data)
{
  static const struct {
    const char *name;
    const char *header;
  } cases[] = {
    { "no-time", "perf  9061/9061  [000]          1 sched:sched_switch: prev_comm=perf prev_pid=9061 prev_prio=120 prev_state=D ==> next_comm=migration/0 next_pid=18 next_prio=0" },
    { "no-tid", "perf  [000]  1668.104773:          1 sched:sched_switch: prev_comm=perf prev_pid=9061 prev_prio=120 prev_state=D ==> next_comm=migration/0 next_pid=18 next_prio=0" },
    { "no-event", "perf  9061/9061  [000]  1668.104773:          1" },
    { "no-next-pid", "perf  9061/9061  [000]  1668.104773:          1 sched:sched_switch: prev_comm=perf prev_pid=9061 prev_prio=120 prev_state=D ==> next_comm=migration/0 next_prio=0" },
    { "no-prev-state", "perf  9061/9061  [000]  1668.104773:          1 sched:sched_switch: prev_comm=perf prev_pid=9061 prev_prio=120 ==> next_comm=migration/0 next_pid=18 next_prio=0" },
    { "no-wake-pid", "perf  9061/9061  [000]  1668.104773:          1 sched:sched_waking: comm=migration/0 prio=0 target_cpu=000" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *text = replace_line (5, cases[i].header);
      g_autofree char *name = g_strconcat (cases[i].name, ".txt", NULL);
      g_autofree char *path = write_file (f, name, text, strlen (text));

      expect_error (path, WS_ERROR_MISSING_FIELD, 5);
    }
}

/* Past stacks found in the importer's stack cache, lines still count. */
static void
test_line_numbers_past_cached_stacks (Fixture       *f,
                                      gconstpointer  data)
{
  g_autoptr(GString) s = g_string_new (NULL);
  const char *event2 = strstr (good_text, "perf  9061/9061  [000]  1668.104773");
  const char *event3 = strstr (good_text, "migration/0    18/18");
  g_autofree char *path = NULL;

  /* Lines 1-8: the first two events; then 50 more copies of the second
   * (4 lines each, the same stack); then a bad header on line 209. */
  g_string_append_len (s, good_text, event3 - good_text);
  for (guint i = 0; i < 50; i++)
    g_string_append_len (s, event2, event3 - event2);
  g_string_append (s, "perf  9061/9061  [000]  1668.104900:          1 sched:sched_waking: comm=x prio=1\n\n");
  path = write_file (f, "cached.txt", s->str, s->len);
  expect_error (path, WS_ERROR_MISSING_FIELD, 8 + 50 * 4 + 1);
}

static void
test_truncated_header (Fixture       *f,
                       gconstpointer  data)
{
  /* Cut inside line 5, the second event's header: that event is unknown. */
  const char *cut = strstr (good_text, "prev_prio=120 prev_state=D");
  g_autofree char *path = write_file (f, "cut-header.txt", good_text, cut - good_text);
  g_autofree char *path2 = write_file (f, "cut-header2.txt", good_text, strstr (good_text, "1668.104773") + 4 - good_text);

  expect_error (path, WS_ERROR_TRUNCATED, 5);
  expect_error (path2, WS_ERROR_TRUNCATED, 5);
}

static void
test_truncated_in_stack_is_kept (Fixture       *f,
                                 gconstpointer  data)
{
  /* Cut inside line 7, a frame of the second event: the event is kept with
   * the frames read before the cut (documented in ws-perf-importer.c). */
  const char *cut = strstr (good_text, "82265df3 schedule (") + 14;
  g_autofree char *path = write_file (f, "cut-stack.txt", good_text, cut - good_text);
  g_autoptr(GError) error = NULL;
  g_autoptr(WsTrace) trace = ws_perf_importer_load (path, NULL, NULL, NULL, NULL, &error);
  const WsEvent *wait;
  guint n_frames;

  g_assert_no_error (error);
  g_assert_cmpuint (ws_trace_count_kind (trace, WS_EVENT_WAIT), ==, 1);
  wait = NULL;
  for (guint i = 0; i < ws_trace_get_n_events (trace); i++)
    if (ws_trace_get_event (trace, i)->kind == WS_EVENT_WAIT)
      wait = ws_trace_get_event (trace, i);
  g_assert_nonnull (wait);
  ws_stack_table_get_stack (ws_trace_get_stack_table (trace), wait->stack, &n_frames);
  g_assert_cmpuint (n_frames, ==, 1);
}

static void
test_gzip_cut_short (Fixture       *f,
                     gconstpointer  data)
{
  g_autofree char *real = g_build_filename (g_getenv ("WS_TEST_DATA"), "build.perf.txt.gz", NULL);
  g_autofree char *bytes = NULL;
  g_autofree char *path = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(WsTrace) trace = NULL;
  gsize len;
  guint64 line;

  g_assert_true (g_file_get_contents (real, &bytes, &len, NULL));
  path = write_file (f, "cut.perf.txt.gz", bytes, len / 2);
  trace = ws_perf_importer_load (path, NULL, NULL, NULL, NULL, &error);
  g_assert_null (trace);
  g_assert_error (error, WS_ERROR, WS_ERROR_TRUNCATED);
  g_test_message ("%s", error->message);

  /* The line reached: half of the compressed bytes hold about half of the
   * file's 67202 lines (the exact count depends on deflate's blocks). */
  line = message_line (error->message, path);
  g_assert_cmpuint (line, >, 67202 / 4);
  g_assert_cmpuint (line, <, 67202 * 3 / 4);
}

static void
test_gzip_corrupt (Fixture       *f,
                   gconstpointer  data)
{
  g_autofree char *real = g_build_filename (g_getenv ("WS_TEST_DATA"), "build.perf.txt.gz", NULL);
  g_autofree char *bytes = NULL;
  g_autofree char *path = NULL;
  gsize len;

  g_assert_true (g_file_get_contents (real, &bytes, &len, NULL));
  /* Scribble over a stretch of the deflate data. */
  memset (bytes + len / 3, 0xa5, 4096);
  path = write_file (f, "corrupt.perf.txt.gz", bytes, len);
  expect_error (path, WS_ERROR_PARSE, 0);
}

static gsize
peak_rss_bytes (void)
{
  struct rusage usage;

  getrusage (RUSAGE_SELF, &usage);
  return (gsize) usage.ru_maxrss * 1024;
}

static void
write_long_line_file (const char *path,
                      gsize       line_len)
{
  FILE *fp = fopen (path, "wb");
  char block[65536];

  g_assert_nonnull (fp);
  memset (block, 'x', sizeof block);
  fputs (good_text, fp);
  fputs ("perf  9061/9061  [000]  1668.104800:          1 sdt_x:y: ", fp);
  for (gsize n = 0; n < line_len; n += sizeof block)
    fwrite (block, 1, MIN (sizeof block, line_len - n), fp);
  fputs ("\n\n", fp);
  fclose (fp);
}

static void
test_too_long_line (Fixture       *f,
                    gconstpointer  data)
{
  g_autofree char *path = g_build_filename (f->dir, "long.txt", NULL);

  /* A 10 MB line (line 11, after the good text's 10). */
  write_long_line_file (path, 10 * 1000 * 1000);
  expect_error (path, WS_ERROR_TOO_LONG, 11);
}

static void
test_too_long_line_bounded_memory (Fixture       *f,
                                   gconstpointer  data)
{
  g_autofree char *path = g_build_filename (f->dir, "longer.txt", NULL);
  gsize before;

  /*
   * A 200 MB line must not be held in memory: the importer's buffer is
   * bounded (a 4 MiB chunk plus the 1 MiB line limit).  Peak RSS may grow
   * by that buffer, never by the line.  Measured in a fresh child process,
   * whose peak is not already raised by the other tests.
   */
  if (!g_test_subprocess ())
    {
      g_test_trap_subprocess (NULL, 0, G_TEST_SUBPROCESS_INHERIT_STDERR);
      g_test_trap_assert_passed ();
      return;
    }

  write_long_line_file (path, 200 * 1000 * 1000);
  before = peak_rss_bytes ();
  expect_error (path, WS_ERROR_TOO_LONG, 11);
  g_test_message ("peak RSS grew by %zu kB", (peak_rss_bytes () - before) / 1024);
  g_assert_cmpuint (peak_rss_bytes () - before, <, 32 * 1024 * 1024);
}

static void
test_missing_file (Fixture       *f,
                   gconstpointer  data)
{
  g_autofree char *path = g_build_filename (f->dir, "does-not-exist.perf.txt", NULL);

  expect_error (path, WS_ERROR_IO, 1);
}

static void
cancel_on_progress (double      fraction,
                    const char *message,
                    gpointer    user_data)
{
  g_cancellable_cancel (user_data);
}

static void
test_cancelled (Fixture       *f,
                gconstpointer  data)
{
  g_autofree char *real = g_build_filename (g_getenv ("WS_TEST_DATA"), "pg-tpcb.perf.txt.gz", NULL);
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  g_autoptr(GError) error = NULL;
  g_autoptr(WsTrace) trace = NULL;
  gint64 t0 = g_get_monotonic_time ();

  /* Cancelled from the first progress report, mid-file (112 MB of text). */
  trace = ws_perf_importer_load (real, NULL, cancel_on_progress, cancellable, cancellable, &error);
  g_assert_null (trace);
  g_assert_error (error, WS_ERROR, WS_ERROR_CANCELLED);
  g_assert_true (g_str_has_prefix (error->message, real));
  g_test_message ("%s after %.0f ms", error->message, (g_get_monotonic_time () - t0) / 1e3);

  /* Already cancelled: nothing is read. */
  g_clear_error (&error);
  trace = ws_perf_importer_load (real, NULL, NULL, NULL, cancellable, &error);
  g_assert_error (error, WS_ERROR, WS_ERROR_CANCELLED);
}

/*
 * Damage the good text at random many times: every result must be a trace
 * or a WS_ERROR naming the file -- never a crash, a hang or a critical.
 */
static void
test_random_damage (Fixture       *f,
                    gconstpointer  data)
{
  GRand *rand = g_rand_new_with_seed (20240601);
  g_autofree char *path = g_build_filename (f->dir, "damaged.txt", NULL);
  guint n_ok = 0, n_error = 0;

  for (guint round = 0; round < 400; round++)
    {
      g_autoptr(GString) s = g_string_new_len (good_text, sizeof good_text - 1);
      g_autoptr(GError) error = NULL;
      g_autoptr(WsTrace) trace = NULL;
      guint edits = g_rand_int_range (rand, 1, 6);

      for (guint e = 0; e < edits; e++)
        {
          guint pos = g_rand_int_range (rand, 0, s->len);
          switch (g_rand_int_range (rand, 0, 5))
            {
            case 0:   /* flip a byte to anything but NUL */
              s->str[pos] = (char) g_rand_int_range (rand, 1, 256);
              break;
            case 1:   /* cut the file */
              g_string_truncate (s, pos);
              break;
            case 2:   /* delete a stretch */
              {
                gsize len = g_rand_int_range (rand, 1, 40);
                g_string_erase (s, pos, MIN (len, s->len - pos));
              }
              break;
            case 3:   /* a digit, colon, bracket or newline somewhere */
              s->str[pos] = "0123456789:[]/ \n\t("[g_rand_int_range (rand, 0, 19)];
              break;
            default:  /* duplicate a stretch */
              g_string_insert_len (s, pos, s->str + pos / 2, MIN (60, s->len - pos / 2));
              break;
            }
          if (s->len == 0)
            break;
        }

      g_assert_true (g_file_set_contents (path, s->str, s->len, NULL));
      trace = ws_perf_importer_load (path, NULL, NULL, NULL, NULL, &error);
      if (trace != NULL)
        {
          g_assert_no_error (error);
          for (guint i = 0; i < ws_trace_get_n_events (trace); i++)
            g_assert_cmpint (ws_event_duration (ws_trace_get_event (trace, i)), >=, 0);
          n_ok++;
        }
      else
        {
          g_assert_true (error != NULL && error->domain == WS_ERROR);
          g_assert_true (g_str_has_prefix (error->message, path));
          n_error++;
        }
    }

  g_test_message ("%u damaged files loaded, %u refused", n_ok, n_error);
  g_assert_cmpuint (n_ok, >, 0);
  g_assert_cmpuint (n_error, >, 0);
  g_rand_free (rand);
}

/* perf.data needs the perf program; without it the error says so. */
static void
test_perf_data_without_perf (Fixture       *f,
                             gconstpointer  data)
{
  const char header[] = "PERFILE2\x68\x00\x00\x00\x00\x00\x00\x00 not really a perf.data";
  g_autofree char *path = write_file (f, "perf.data", header, sizeof header - 1);
  g_autofree char *old_path = g_strdup (g_getenv ("PATH"));
  g_autoptr(GError) error = NULL;
  g_autoptr(WsTrace) trace = NULL;

  g_setenv ("PATH", f->dir, TRUE);
  trace = ws_perf_importer_load (path, NULL, NULL, NULL, NULL, &error);
  g_setenv ("PATH", old_path, TRUE);

  g_assert_null (trace);
  g_assert_error (error, WS_ERROR, WS_ERROR_IO);
  g_assert_true (g_str_has_prefix (error->message, path));
  g_assert_nonnull (strstr (error->message, "perf"));
  g_test_message ("%s", error->message);
}

/* perf script refuses the file: its own message reaches the user. */
static void
test_perf_data_perf_fails (Fixture       *f,
                           gconstpointer  data)
{
  const char header[] = "PERFILE2 broken";
  const char fake_perf[] =
    "#!/bin/sh\n"
    "echo 'incompatible file format (rerun with -v to learn more)' >&2\n"
    "exit 255\n";
  g_autofree char *path = write_file (f, "perf.data", header, sizeof header - 1);
  g_autofree char *perf = write_file (f, "perf", fake_perf, sizeof fake_perf - 1);
  g_autofree char *old_path = g_strdup (g_getenv ("PATH"));
  g_autofree char *new_path = g_strconcat (f->dir, ":", old_path, NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(WsTrace) trace = NULL;

  g_assert_cmpint (g_chmod (perf, 0755), ==, 0);
  g_setenv ("PATH", new_path, TRUE);
  trace = ws_perf_importer_load (path, NULL, NULL, NULL, NULL, &error);
  g_setenv ("PATH", old_path, TRUE);

  g_assert_null (trace);
  g_assert_error (error, WS_ERROR, WS_ERROR_PARSE);
  g_assert_true (g_str_has_prefix (error->message, path));
  g_assert_nonnull (strstr (error->message, "incompatible file format"));
  g_test_message ("%s", error->message);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

#define ADD(name, func) \
  g_test_add ("/bad-input/perf/" name, Fixture, NULL, fixture_setup, func, fixture_teardown)

  ADD ("good-control", test_good_text_loads);
  ADD ("empty", test_empty);
  ADD ("binary-nul", test_binary_nul);
  ADD ("binary-control-bytes", test_binary_control_bytes);
  ADD ("not-perf-text", test_not_perf_text);
  ADD ("missing-fields", test_missing_fields);
  ADD ("line-numbers-past-cached-stacks", test_line_numbers_past_cached_stacks);
  ADD ("truncated-header", test_truncated_header);
  ADD ("truncated-in-stack", test_truncated_in_stack_is_kept);
  ADD ("gzip-cut-short", test_gzip_cut_short);
  ADD ("gzip-corrupt", test_gzip_corrupt);
  ADD ("too-long-line", test_too_long_line);
  ADD ("too-long-line-bounded-memory", test_too_long_line_bounded_memory);
  ADD ("missing-file", test_missing_file);
  ADD ("cancelled", test_cancelled);
  ADD ("random-damage", test_random_damage);
  ADD ("perf-data-without-perf", test_perf_data_without_perf);
  ADD ("perf-data-perf-fails", test_perf_data_perf_fails);

#undef ADD

  return g_test_run ();
}
