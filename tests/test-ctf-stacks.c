/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * LTTng call-stack contexts and block events (ws-ctf-reader.c,
 * ws-ctf-symbols.c) on tests/data/ctf/fsync-dd-stacks.tar.gz: the perf
 * recording tests/data/causes/fsync-dd.perf.txt.gz converted field by
 * field by tools/perf-to-ctf.py (tests/data/ctf/README.md), its stacks as
 * `callstack_kernel`/`callstack_user` addresses and a kallsyms file
 * naming them.
 *
 * Oracles: the perf importer on the perf recording the trace was made
 * from, less its CPU samples (LTTng records none): every event, its
 * time, thread, state, readier and stack equal; the same `why`.  For the
 * bare addresses, the trace's kallsyms file read here.  For the block
 * requests, the perf text's own block_rq_issue lines counted here.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include <glib/gstdio.h>

#include "ws-attribution.h"
#include "ws-block-requests.h"
#include "ws-ctf-symbols.h"
#include "ws-error.h"
#include "ws-scenario-rules.h"
#include "ws-thread-picker.h"
#include "ws-trace-loader.h"
#include "ws-why-targets.h"

#define DD_TID 4152

static char *
data_path (const char *dir,
           const char *file)
{
  const char *data = g_getenv ("WS_TEST_DATA");

  return data != NULL ? g_build_filename (data, dir, file, NULL) : NULL;
}

static WsTrace *
load (const char *path)
{
  g_autoptr(WsScenarioRules) rules = ws_scenario_rules_new_default ();
  g_autoptr(GError) error = NULL;
  WsTrace *trace = ws_trace_loader_load_full (path, NULL, rules, NULL, NULL, NULL, &error);

  g_assert_no_error (error);
  return trace;
}

/* The output of a command (zcat, tar). */
static char *
run (const char * const *argv)
{
  g_autoptr(GError) error = NULL;
  char *out = NULL;
  int status = 0;

  g_assert_true (g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_SEARCH_PATH, NULL, NULL, &out, NULL, &status, &error));
  g_assert_no_error (error);
  g_assert_cmpint (status, ==, 0);
  return out;
}

/* The perf recording's text, and the same without its CPU samples (the
 * event blocks of cpu-clock) written to @dir. */
static char *
perf_without_samples (const char *dir,
                      char      **text_out)
{
  g_autofree char *path = data_path ("causes", "fsync-dd.perf.txt.gz");
  const char *argv[] = { "zcat", path, NULL };
  char *text = run (argv);
  g_autoptr(GString) kept = g_string_new (NULL);
  char *out = g_build_filename (dir, "fsync-dd.perf.txt", NULL);
  gboolean skip = FALSE;

  for (char *line = text, *next; *line != '\0'; line = next)
    {
      char *nl = strchr (line, '\n');

      next = nl != NULL ? nl + 1 : line + strlen (line);
      if (*line != '\t' && *line != '\n')
        skip = g_strstr_len (line, next - line, " cpu-clock:") != NULL;
      if (!skip)
        g_string_append_len (kept, line, next - line);
    }
  g_assert_true (g_file_set_contents (out, kept->str, kept->len, NULL));
  *text_out = text;
  return out;
}

/* A frame as "function (module)"; a bare address named through @names. */
static char *
frame_text (WsStackTable *stacks,
            WsFrameId     id,
            GHashTable   *names)
{
  const WsFrame *f = ws_stack_table_get_frame (stacks, id);

  if (names != NULL)
    {
      const char *named = g_hash_table_lookup (names, f->function);

      g_assert_true (g_str_has_prefix (f->function, "0x"));
      g_assert_nonnull (named);
      return g_strdup (named);
    }
  return g_strdup_printf ("%s (%s)", f->function, f->module);
}

/* Everything an event says, as text, its indices replaced by what they
 * point at (the peer by its kind, time and thread: events of the same
 * time may come in another order). */
static char *
event_text (WsTrace    *trace,
            guint       i,
            GHashTable *names,
            gboolean    waits_only)
{
  const WsEvent *e = ws_trace_get_event (trace, i);
  WsStackTable *stacks = ws_trace_get_stack_table (trace);
  GString *s = g_string_new (NULL);
  guint n = 0;
  const WsFrameId *frames = e->stack != WS_STACK_EMPTY ? ws_stack_table_get_stack (stacks, e->stack, &n) : NULL;

  g_string_append_printf (s, "%d %" G_GINT64_FORMAT " %" G_GINT64_FORMAT " tid %d cpu %u state %c flags %u latency %u",
                          e->kind, e->time, ws_event_duration (e), ws_trace_get_thread (trace, e->thread)->tid, e->cpu,
                          e->state ? e->state : '-', e->flags, ws_trace_wait_ready_latency (trace, i));
  if (e->kind == WS_EVENT_MARKER)
    g_string_append_printf (s, " marker %s", ws_trace_get_string (trace, ws_event_name (e)));
  else if (ws_event_name (e) != WS_NONE)
    g_string_append_printf (s, " name %s", ws_trace_get_string (trace, ws_event_name (e)));
  else if (ws_event_target (e) != WS_NONE)
    g_string_append_printf (s, " target %d", ws_trace_get_thread (trace, ws_event_target (e))->tid);
  if (ws_event_peer (e) != WS_NONE)
    {
      const WsEvent *p = ws_trace_get_event (trace, e->peer);
      /* (bare addresses cannot tell a wake-up in an interrupt from one in
       * a thread: its kind only when named) */
      g_string_append_printf (s, " peer %d %" G_GINT64_FORMAT " %d", waits_only ? -1 : p->kind, p->time,
                              ws_trace_get_thread (trace, p->thread)->tid);
    }
  for (guint k = 0; k < n; k++)
    {
      g_autofree char *f = frame_text (stacks, frames[k], names);

      g_string_append_printf (s, " | %s", f);
    }
  return g_string_free (s, FALSE);
}

static int
compare_texts (gconstpointer a,
               gconstpointer b)
{
  return strcmp (*(char * const *) a, *(char * const *) b);
}

/* The events of @a and @b equal one by one (as sets of texts: events of
 * the same time may come in either order).  With @names_a (@a's frames
 * are bare addresses), the waits alone: a wake-up's kind, in an interrupt
 * or not, is read from the names of its frames. */
static void
assert_same_events (WsTrace    *a,
                    GHashTable *names_a,
                    WsTrace    *b)
{
  g_autoptr(GPtrArray) ta = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GPtrArray) tb = g_ptr_array_new_with_free_func (g_free);
  guint n_waits = 0, n_stacks = 0;

  for (guint i = 0; i < ws_trace_get_n_events (a); i++)
    {
      const WsEvent *e = ws_trace_get_event (a, i);

      if (names_a != NULL && e->kind != WS_EVENT_WAIT)
        continue;
      g_ptr_array_add (ta, event_text (a, i, names_a, names_a != NULL));
      n_waits += e->kind == WS_EVENT_WAIT;
      n_stacks += e->kind == WS_EVENT_WAIT && e->stack != WS_STACK_EMPTY;
    }
  for (guint i = 0; i < ws_trace_get_n_events (b); i++)
    if (names_a == NULL || ws_trace_get_event (b, i)->kind == WS_EVENT_WAIT)
      g_ptr_array_add (tb, event_text (b, i, NULL, names_a != NULL));
  g_ptr_array_sort (ta, compare_texts);
  g_assert_cmpuint (ta->len, ==, tb->len);
  g_test_message ("%u events, %u waits, %u of them with a stack", ta->len, n_waits, n_stacks);
  g_assert_cmpuint (n_waits, >, 500);
  g_assert_cmpuint (n_stacks, ==, n_waits);
  g_assert_cmpuint (n_waits, ==, names_a != NULL ? ta->len : n_waits);
  g_ptr_array_sort (tb, compare_texts);
  for (guint i = 0; i < ta->len; i++)
    g_assert_cmpstr (ta->pdata[i], ==, tb->pdata[i]);
}

static const WsCause *
top_cause (WsTrace          *trace,
           WsAttribution   **attribution,
           char            **program)
{
  g_autoptr(GPtrArray) traces = g_ptr_array_new ();
  g_autoptr(GPtrArray) picks = NULL;
  g_autoptr(GArray) targets = NULL;
  g_autoptr(GError) error = NULL;

  g_ptr_array_add (traces, trace);
  targets = ws_attribution_targets_waiting_threads_full (traces, NULL, 3, &picks);
  g_assert_cmpuint (picks->len, ==, 1);
  *program = g_strdup (((WsThreadPick *) g_ptr_array_index (picks, 0))->program);
  *attribution = ws_attribution_compute (targets, NULL, &error);
  g_assert_no_error (error);
  return ws_attribution_get_cause (*attribution, 0);
}

/* The trace's kallsyms file read here: "0x…" -> "function (module)". */
static GHashTable *
read_kallsyms (const char *path)
{
  g_autofree char *text = NULL;
  g_auto(GStrv) lines = NULL;
  GHashTable *names = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);

  g_assert_true (g_file_get_contents (path, &text, NULL, NULL));
  lines = g_strsplit (text, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      g_auto(GStrv) cols = NULL;
      g_autofree char *module = NULL;
      char *tab;

      if (*lines[i] == '\0')
        continue;
      if ((tab = strchr (lines[i], '\t')) != NULL)
        {
          *tab = '\0';
          /* "[/path]" is the file; "[unknown]", "[vdso]" keep their brackets */
          module = tab[2] == '/' ? g_strndup (tab + 2, strlen (tab + 2) - 1) : g_strdup (tab + 1);
        }
      cols = g_strsplit (lines[i], " ", 3);
      g_assert_nonnull (cols[2]);
      g_hash_table_insert (names, g_strdup_printf ("0x%" G_GINT64_MODIFIER "x", g_ascii_strtoull (cols[0], NULL, 16)),
                           g_strdup_printf ("%s (%s)", cols[2], module != NULL ? module : "[kernel.kallsyms]"));
    }
  return names;
}

/*
 * Named through the trace's kallsyms file, every event of the converted
 * trace equals the perf importer's from the recording, with its stack;
 * `why` gives the same program, top cause and share.
 */
static void
test_named_stacks (void)
{
  g_autofree char *archive = data_path ("ctf", "fsync-dd-stacks.tar.gz");
  g_autofree char *dir = NULL;
  g_autofree char *perf_text = NULL;
  g_autofree char *perf_path = NULL;
  g_autoptr(WsTrace) ctf = NULL;
  g_autoptr(WsTrace) perf = NULL;
  g_autoptr(WsAttribution) attribution_a = NULL, attribution_b = NULL;
  g_autofree char *program_a = NULL, *program_b = NULL;
  const WsCause *ca, *cb;

  if (archive == NULL)
    {
      g_test_skip ("WS_TEST_DATA not set");
      return;
    }
  dir = g_dir_make_tmp ("test-ctf-stacks-XXXXXX", NULL);
  perf_path = perf_without_samples (dir, &perf_text);
  ctf = load (archive);
  perf = load (perf_path);
  assert_same_events (ctf, NULL, perf);

  ca = top_cause (ctf, &attribution_a, &program_a);
  cb = top_cause (perf, &attribution_b, &program_b);
  g_test_message ("LTTng: %s: %s %.1f %%; perf: %s: %s %.1f %%", program_a, ca->label, 100 * ca->share,
                  program_b, cb->label, 100 * cb->share);
  g_assert_cmpstr (program_a, ==, "fsync-writer");
  g_assert_cmpstr (program_a, ==, program_b);
  g_assert_cmpstr (ca->label, ==, cb->label);
  g_assert_cmpstr (ca->kernel_function, ==, cb->kernel_function);
  g_assert_cmpfloat (ABS (ca->share - cb->share), <, 1e-9);
  g_assert_nonnull (strstr (ca->label, "fsync"));
  g_unlink (perf_path);
  g_rmdir (dir);
}

/*
 * Without the kallsyms file every frame is its bare address ("0x…", the
 * kernel's in [kernel.kallsyms]); named back through that file, read
 * here, they are the perf recording's frames.
 */
static void
test_bare_addresses (void)
{
  g_autofree char *archive = data_path ("ctf", "fsync-dd-stacks.tar.gz");
  g_autofree char *dir = NULL;
  g_autofree char *kallsyms = NULL, *side = NULL, *trace_dir = NULL;
  g_autofree char *perf_text = NULL;
  g_autofree char *perf_path = NULL;
  g_autoptr(GHashTable) names = NULL;
  g_autoptr(WsTrace) ctf = NULL;
  g_autoptr(WsTrace) perf = NULL;

  if (archive == NULL)
    {
      g_test_skip ("WS_TEST_DATA not set");
      return;
    }
  dir = g_dir_make_tmp ("test-ctf-stacks-XXXXXX", NULL);
  {
    const char *argv[] = { "tar", "xzf", archive, "-C", dir, NULL };
    g_free (run (argv));
  }
  trace_dir = g_build_filename (dir, "fsync-dd-stacks", NULL);
  kallsyms = g_build_filename (trace_dir, "kallsyms", NULL);
  side = g_build_filename (dir, "side-table", NULL);
  g_assert_cmpint (g_rename (kallsyms, side), ==, 0);
  names = read_kallsyms (side);
  perf_path = perf_without_samples (dir, &perf_text);
  ctf = load (trace_dir);
  perf = load (perf_path);
  assert_same_events (ctf, names, perf);
  {
    const char *argv[] = { "rm", "-rf", dir, NULL };
    g_free (run (argv));
  }
}

/*
 * block_rq_issue/complete: the trace's block requests against the perf
 * text's own block_rq_issue lines (count, bytes, per issuer) and the
 * perf importer's requests one by one; `why` puts dd in the queue behind
 * the writer's disk wait.
 */
static void
test_block_requests (void)
{
  g_autofree char *archive = data_path ("ctf", "fsync-dd-stacks.tar.gz");
  g_autofree char *dir = NULL;
  g_autofree char *perf_text = NULL;
  g_autofree char *perf_path = NULL;
  g_autoptr(WsTrace) ctf = NULL;
  g_autoptr(WsTrace) perf = NULL;
  g_autoptr(WsAttribution) attribution = NULL;
  g_autofree char *program = NULL;
  g_autoptr(GHashTable) by_tid = g_hash_table_new (NULL, NULL);   /* tid -> bytes issued */
  g_autoptr(GRegex) tid_regex = g_regex_new ("\\d+/(\\d+)\\s+\\[\\d+\\]", 0, 0, NULL);
  const WsBlockRequests *rq, *rq_perf;
  const WsCause *top;
  guint n_issues = 0;
  guint64 bytes = 0, dd_bytes = 0, bytes_text = 0;
  gboolean dd_behind = FALSE;

  if (archive == NULL)
    {
      g_test_skip ("WS_TEST_DATA not set");
      return;
    }
  dir = g_dir_make_tmp ("test-ctf-stacks-XXXXXX", NULL);
  perf_path = perf_without_samples (dir, &perf_text);

  /* The oracle: "dd  4152/4152  [001]  1341.31: 1  block:block_rq_issue: 254,0 W 1048576 () …" */
  for (char *line = strstr (perf_text, "block:block_rq_issue: "); line != NULL;
       line = strstr (line + 1, "block:block_rq_issue: "))
    {
      char *header = line;
      g_auto(GStrv) f = NULL;
      g_autoptr(GMatchInfo) m = NULL;
      g_autofree char *tid_text = NULL;
      gint tid;

      while (header > perf_text && header[-1] != '\n')
        header--;
      g_autofree char *fields = g_strndup (line + strlen ("block:block_rq_issue: "),
                                           strcspn (line + strlen ("block:block_rq_issue: "), "\n"));

      f = g_strsplit_set (fields, " ", 4);   /* on the line: the rest of the text made it quadratic */
      g_autofree char *header_line = g_strndup (header, strcspn (header, "\n"));

      /* "kworker/0:1H-kb    44/44    [000]": the tid after the pid.  On
       * the line alone: GRegex checks its whole subject is UTF-8, and the
       * rest of the text made that quadratic (6 s, 10 min under ASan). */
      g_assert_true (g_regex_match (tid_regex, header_line, 0, &m));
      tid = atoi (tid_text = g_match_info_fetch (m, 1));
      g_assert_cmpstr (f[0], ==, "254,0");
      n_issues++;
      bytes_text += g_ascii_strtoull (f[2], NULL, 10);
      g_hash_table_insert (by_tid, GINT_TO_POINTER (tid),
                           GSIZE_TO_POINTER (GPOINTER_TO_SIZE (g_hash_table_lookup (by_tid, GINT_TO_POINTER (tid))) +
                                             g_ascii_strtoull (f[2], NULL, 10)));
    }
  g_test_message ("perf text: %u requests issued, %" G_GUINT64_FORMAT " bytes", n_issues, bytes_text);

  ctf = load (archive);
  perf = load (perf_path);
  rq = ws_trace_get_block_requests (ctf);
  rq_perf = ws_trace_get_block_requests (perf);
  g_assert_nonnull (rq);
  g_assert_nonnull (rq_perf);
  /* A request issued before the recording began completes as an orphan,
   * left out; every issue is a request. */
  g_assert_cmpuint (ws_block_requests_get_n (rq), ==, n_issues);
  g_assert_cmpuint (ws_block_requests_get_n (rq_perf), ==, n_issues);
  g_assert_cmpuint (ws_block_requests_get_n_orphans (rq), ==, ws_block_requests_get_n_orphans (rq_perf));
  for (guint i = 0; i < ws_block_requests_get_n (rq); i++)
    {
      const WsBlockRequest *q = ws_block_requests_get (rq, i);
      const WsBlockRequest *p = ws_block_requests_get (rq_perf, i);
      gint tid = ws_trace_get_thread (ctf, q->thread)->tid;
      gsize left = GPOINTER_TO_SIZE (g_hash_table_lookup (by_tid, GINT_TO_POINTER (tid)));

      g_assert_cmpint (q->issue, ==, p->issue);
      g_assert_cmpint (q->complete, ==, p->complete);
      g_assert_cmpuint (q->sector, ==, p->sector);
      g_assert_cmpuint (q->bytes, ==, p->bytes);
      g_assert_cmpuint (q->device, ==, p->device);
      g_assert_cmpint (q->op, ==, p->op);
      g_assert_cmpint (q->flags, ==, p->flags);
      g_assert_cmpint (tid, ==, ws_trace_get_thread (perf, p->thread)->tid);
      g_assert_cmpuint (WS_BLOCK_DEVICE_MAJOR (q->device), ==, 254);
      g_assert_cmpuint (left, >=, q->bytes);
      g_hash_table_insert (by_tid, GINT_TO_POINTER (tid), GSIZE_TO_POINTER (left - q->bytes));
      bytes += q->bytes;
      if (tid == DD_TID)
        dd_bytes += q->bytes;
    }
  g_assert_cmpuint (bytes, ==, bytes_text);
  g_assert_cmpuint (dd_bytes, >, bytes / 2);
  {
    GHashTableIter it;
    gpointer left;

    g_hash_table_iter_init (&it, by_tid);
    while (g_hash_table_iter_next (&it, NULL, &left))
      g_assert_cmpuint (GPOINTER_TO_SIZE (left), ==, 0);   /* per issuer, every byte */
  }

  top = top_cause (ctf, &attribution, &program);
  g_assert_cmpstr (program, ==, "fsync-writer");
  g_assert_cmpint (top->state, ==, 'D');
  for (guint i = 0; top->behind != NULL && i < top->behind->len; i++)
    {
      const WsBehindThread *b = &g_array_index (top->behind, WsBehindThread, i);

      if (b->what == WS_BEHIND_REQUESTS && ws_trace_get_thread (b->trace, b->thread)->tid == DD_TID)
        dd_behind = b->bytes > 0;
    }
  g_assert_true (dd_behind);
  g_unlink (perf_path);
  g_rmdir (dir);
}

/*
 * The law of LTTng's integer rwbs: for any request (an operation and its
 * flags), the operation read from the flags LTTng records is the one read
 * from the text the kernel prints, and the request's own.  Both encodings
 * are made here from the request, as the kernel's blk_fill_rwbs() and
 * lttng-modules' blk_rwbs_ctf_integer() make them.
 */
static void
test_rwbs_law (void)
{
  enum { OP_READ, OP_WRITE, OP_FLUSH, OP_DISCARD, OP_SECURE_ERASE, OP_OTHER, N_OPS };
  static const char expected[N_OPS] = { 'R', 'W', 'F', 'D', 'D', 'N' };

  for (guint k = 0; k < 20000; k++)
    {
      guint op = g_test_rand_int_range (0, N_OPS);
      gboolean preflush = g_test_rand_bit (), fua = g_test_rand_bit (), rahead = g_test_rand_bit ();
      gboolean sync = g_test_rand_bit (), meta = g_test_rand_bit ();
      char text[8];
      guint n = 0;
      guint64 flags = 0;

      if (preflush)
        text[n++] = 'F';
      text[n++] = "RWFDDN"[op];
      if (op == OP_SECURE_ERASE)
        text[n++] = 'E';
      if (fua)
        text[n++] = 'F';
      if (rahead)
        text[n++] = 'A';
      if (sync)
        text[n++] = 'S';
      if (meta)
        text[n++] = 'M';
      text[n] = '\0';

      flags = (guint64[]) { 4, 1, 256, 2, 2 | 128, 0 }[op];
      flags |= (rahead ? 8 : 0) | (sync ? 32 : 0) | (meta ? 64 : 0) | (fua ? 512 : 0) | (preflush ? 1024 : 0);

      g_assert_cmpint (ws_block_op_from_rwbs (text, n), ==, expected[op]);
      g_assert_cmpint (ws_block_op_from_lttng_rwbs (flags), ==, expected[op]);
    }
}

/*
 * The law of a kallsyms file: an address takes the symbol at or below it
 * (its name alone, in its module), or stays "0x…" below every symbol.
 * Random tables (symbols in random order, some at address 0, which
 * unprivileged readers see and which name nothing), against a scan here.
 */
static void
test_kallsyms_law (void)
{
  for (guint round = 0; round < 50; round++)
    {
      g_autofree char *dir = g_dir_make_tmp ("test-ctf-kallsyms-XXXXXX", NULL);
      g_autofree char *trace_dir = g_build_filename (dir, "kernel", NULL);
      g_autofree char *path = g_build_filename (dir, "kallsyms", NULL);
      const char *dirs[] = { trace_dir, NULL };
      g_autoptr(GString) text = g_string_new (NULL);
      g_autoptr(GError) error = NULL;
      g_autoptr(WsStackTable) stacks = ws_stack_table_new ();
      g_autoptr(WsCtfSymbols) symbols = NULL;
      guint n = g_test_rand_int_range (1, 60);
      guint64 *addresses = g_new (guint64, n);

      for (guint i = 0; i < n; i++)
        {
          /* distinct addresses in a narrow range, so that lookups land between them */
          addresses[i] = g_test_rand_int_range (0, 8) == 0 ? 0 : G_GUINT64_CONSTANT (0xffffffff81000000) + 16 * i;
          g_string_append_printf (text, "%016" G_GINT64_MODIFIER "x %c sym%u%s\n", addresses[i], "tTdb"[i % 4], i,
                                  i % 3 == 0 ? "\t[ext4]" : i % 3 == 1 ? "\t[/usr/lib/libx.so]" : "");
        }
      /* the file in random order */
      {
        g_auto(GStrv) lines = g_strsplit (text->str, "\n", -1);
        guint len = g_strv_length (lines) - 1;
        g_autoptr(GString) shuffled = g_string_new (NULL);

        for (guint i = len; i > 1; i--)
          {
            guint j = g_test_rand_int_range (0, i);
            char *t = lines[i - 1];
            lines[i - 1] = lines[j];
            lines[j] = t;
          }
        for (guint i = 0; i < len; i++)
          g_string_append_printf (shuffled, "%s\n", lines[i]);
        g_assert_true (g_file_set_contents (path, shuffled->str, shuffled->len, NULL));
      }
      symbols = ws_ctf_symbols_load (dirs, &error);
      g_assert_no_error (error);

      for (guint k = 0; k < 200; k++)
        {
          guint64 a = G_GUINT64_CONSTANT (0xffffffff81000000) - 64 + g_test_rand_int_range (0, 16 * (gint32) n + 128);
          const WsFrame *f = ws_stack_table_get_frame (stacks, ws_ctf_symbols_frame (symbols, stacks, a, TRUE));
          gint best = -1;
          g_autofree char *want = NULL;
          const char *want_module;

          for (guint i = 0; i < n; i++)
            if (addresses[i] != 0 && addresses[i] <= a && (best < 0 || addresses[i] > addresses[best]))
              best = (gint) i;
          if (best < 0)
            {
              want = g_strdup_printf ("0x%" G_GINT64_MODIFIER "x", a);
              want_module = "[kernel.kallsyms]";
            }
          else
            {
              want = g_strdup_printf ("sym%d", best);
              want_module = best % 3 == 0 ? "[ext4]" : best % 3 == 1 ? "/usr/lib/libx.so" : "[kernel.kallsyms]";
            }
          g_assert_cmpstr (f->function, ==, want);
          g_assert_cmpstr (f->module, ==, want_module);
        }
      g_free (addresses);
      g_unlink (path);
      g_rmdir (dir);
    }
}

/* A kallsyms file that does not read: an error naming it and its line. */
static void
test_bad_kallsyms (void)
{
  g_autofree char *archive = data_path ("ctf", "fsync-dd-stacks.tar.gz");
  g_autofree char *dir = NULL, *trace_dir = NULL, *kallsyms = NULL, *prefix = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(WsTrace) trace = NULL;

  if (archive == NULL)
    {
      g_test_skip ("WS_TEST_DATA not set");
      return;
    }
  dir = g_dir_make_tmp ("test-ctf-stacks-XXXXXX", NULL);
  {
    const char *argv[] = { "tar", "xzf", archive, "-C", dir, NULL };
    g_free (run (argv));
  }
  trace_dir = g_build_filename (dir, "fsync-dd-stacks", NULL);
  kallsyms = g_build_filename (trace_dir, "kallsyms", NULL);
  g_assert_true (g_file_set_contents (kallsyms, "ffffffff813b4986 T try_to_wake_up\nnot a symbol\n", -1, NULL));
  trace = ws_trace_loader_load (trace_dir, NULL, NULL, NULL, NULL, &error);
  g_assert_null (trace);
  g_assert_error (error, WS_ERROR, WS_ERROR_PARSE);
  g_test_message ("%s", error->message);
  prefix = g_strdup_printf ("%s:2: ", kallsyms);
  g_assert_true (g_str_has_prefix (error->message, prefix));
  g_clear_error (&error);
  /* A module that is not text (no JSON output could hold it). */
  g_assert_true (g_file_set_contents (kallsyms, "ffffffff813b4986 T try_to_wake_up\t[/usr/lib/\xff.so]\n", -1, NULL));
  trace = ws_trace_loader_load (trace_dir, NULL, NULL, NULL, NULL, &error);
  g_assert_null (trace);
  g_assert_error (error, WS_ERROR, WS_ERROR_PARSE);
  g_free (prefix);
  prefix = g_strdup_printf ("%s:1: ", kallsyms);
  g_assert_true (g_str_has_prefix (error->message, prefix));
  {
    const char *argv[] = { "rm", "-rf", dir, NULL };
    g_free (run (argv));
  }
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);
#ifdef HAVE_BABELTRACE2
  g_test_add_func ("/ctf/named-stacks", test_named_stacks);
  g_test_add_func ("/ctf/bare-addresses", test_bare_addresses);
  g_test_add_func ("/ctf/block-requests", test_block_requests);
  g_test_add_func ("/ctf/bad-kallsyms", test_bad_kallsyms);
  g_test_add_func ("/ctf/kallsyms-law", test_kallsyms_law);
#endif
  g_test_add_func ("/ctf/rwbs-law", test_rwbs_law);
  return g_test_run ();
}
