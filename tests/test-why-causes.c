/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The first answer names the cause, on real traces whose cause is known
 * because the workload was written to have it (tests/data/causes, made by
 * tests/data/workloads/record.sh; docs/attribution.md has the table).
 * None of these traces has scenario instances: `waitscope-cli why` and the
 * Overview start from the threads the picker chooses, so each test checks
 * both that the picker chose the workload's threads and that the top cause
 * over them is the known one.
 */
#include "config.h"

#include <string.h>

#include "ws-attribution.h"
#include "ws-block-requests.h"
#include "ws-scenario-rules.h"
#include "ws-trace-loader.h"
#include "ws-why-targets.h"

/* What a trace's top cause must be. */
typedef struct {
  const char  *file;
  const char  *picked;      /* the program the picker must choose */
  const char  *program;     /* the workload's threads: name prefix */
  WsCauseKind  kind;
  char         state;       /* BLOCKED: the wait's state */
  const char  *signature;   /* substring of the cause's signature, or NULL */
  const char  *function;    /* RUNNING: substring of the top function, or NULL */
  double       min_share;   /* the top cause's share must exceed it; 0 = one half */
} Expected;

static WsTrace *
load (const char *file)
{
  const char *dir = g_getenv ("WS_TEST_DATA");
  g_autofree char *path = NULL;
  g_autoptr(WsScenarioRules) rules = ws_scenario_rules_new_default ();
  g_autoptr(GError) error = NULL;
  WsTrace *trace;

  if (dir == NULL)
    return NULL;
  path = g_build_filename (dir, "causes", file, NULL);
  trace = ws_trace_loader_load_full (path, NULL, rules, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  return trace;
}

/* The name of @thread or of its process starts with @prefix. */
static gboolean
is_program (WsTrace    *trace,
            guint       thread,
            const char *prefix)
{
  const WsThread *t = ws_trace_get_thread (trace, thread);
  const WsProcess *p = ws_trace_get_process (trace, t->process);

  return (t->name != NULL && g_str_has_prefix (t->name, prefix)) ||
         (p->name != NULL && g_str_has_prefix (p->name, prefix));
}

static void
check (gconstpointer data)
{
  const Expected *x = data;
  g_autoptr(WsTrace) trace = load (x->file);
  g_autoptr(GPtrArray) traces = g_ptr_array_new ();
  g_autoptr(GArray) targets = NULL;
  g_autoptr(WsAttribution) attribution = NULL;
  g_autoptr(GPtrArray) picks = NULL;
  g_autoptr(GError) error = NULL;
  const WsThreadPick *pick;
  const WsCause *top;

  if (trace == NULL)
    {
      g_test_skip ("WS_TEST_DATA not set");
      return;
    }
  g_assert_cmpuint (ws_trace_get_n_scenario_instances (trace), ==, 0);
  g_ptr_array_add (traces, trace);

  targets = ws_attribution_targets_waiting_threads_full (traces, NULL, 3, &picks);
  g_assert_cmpuint (targets->len, >, 0);
  g_assert_cmpuint (picks->len, ==, 1);
  pick = g_ptr_array_index (picks, 0);
  g_test_message ("%s: picked %s, runner-up %s", x->file, pick->program, pick->runner_up);
  g_assert_cmpstr (pick->program, ==, x->picked);
  g_assert_nonnull (pick->runner_up);
  g_assert_cmpstr (pick->runner_up, !=, "");
  for (guint i = 0; i < targets->len; i++)
    g_assert_true (is_program (trace, g_array_index (targets, WsAttributionTarget, i).symptom.thread, x->program));

  attribution = ws_attribution_compute (targets, NULL, &error);
  g_assert_no_error (error);
  top = ws_attribution_get_cause (attribution, 0);
  g_test_message ("%s: %s (%.1f %%)", x->file, top->label, 100 * top->share);
  g_assert_cmpint (top->kind, ==, x->kind);
  if (x->kind == WS_CAUSE_BLOCKED)
    g_assert_cmpint (top->state, ==, x->state);
  if (x->signature != NULL && x->signature[0] == '\0')
    g_assert_cmpstr (top->signature, ==, "");
  else if (x->signature != NULL)
    g_assert_nonnull (strstr (top->signature, x->signature));
  if (x->function != NULL)
    g_assert_nonnull (top->top_function != NULL ? strstr (top->top_function, x->function) : NULL);
  /* The first answer is an answer: it holds most of the delay. */
  g_assert_cmpfloat (top->share, >, x->min_share > 0 ? x->min_share : 0.5);
}

static const Expected cases[] = {
  /* Python threads contend a lock whose holder computes in Python; the
   * woken waiter's GIL waits time out while the holder keeps the GIL. */
  { "py-lock-cpu.perf.txt.gz", "pylc-main", "pylc-", WS_CAUSE_RUNNING, 0, "pylc-", "_PyEval_EvalFrameDefault" },
  /* Pure-Python threads serialised by the GIL alone (timed GIL waits). */
  { "py-gil.perf.txt.gz", "pygil-main", "pygil-", WS_CAUSE_RUNNING, 0, "pygil-", "_PyEval_EvalFrameDefault" },
  /* PostgreSQL backends queue on one row lock whose holder computes. */
  { "pg-rowlock.perf.txt.gz", "postgres", "postgres", WS_CAUSE_RUNNING, 0, "postgres", NULL },
  /* A mutex held across write + fsync: the disk. */
  { "fsync-writer.perf.txt.gz", "fsync-writer", "fsw-", WS_CAUSE_BLOCKED, 'D', "fsync", NULL },
  /* A mutex held across a 2 ms nanosleep. */
  { "sleep-cs.perf.txt.gz", "sleep-cs", "slcs-", WS_CAUSE_BLOCKED, 'S', "nanosleep", NULL },
  /* Eight compute loops on two CPUs: waiting for a CPU is the answer. */
  { "oversub.perf.txt.gz", "oversub", "ovs-", WS_CAUSE_READY, 0, NULL, NULL },
  /* A process reads records from a pipe that another process computes:
   * the producer running, across programs. */
  { "pipe-producer.perf.txt.gz", "pipe-cons", "pipe-", WS_CAUSE_RUNNING, 0, "pipe-prod", "produce_record" },
  /* Consumers in pthread_cond_wait; the signalling producer computes. */
  { "condvar-queue.perf.txt.gz", "condvar-queue", "cvq-", WS_CAUSE_RUNNING, 0, "condvar-queue", "make_item" },
  /* A waits for B (condition variable), B for a mutex C holds while it
   * computes: C running, two hand-offs away. */
  { "chain3.perf.txt.gz", "ch-a", "ch-", WS_CAUSE_RUNNING, 0, NULL, "crunch" },
  /* Clients wait on a TCP loopback server that fsyncs each request under
   * a mutex: the disk, in another process, behind a socket. */
  { "tcp-server-disk.perf.txt.gz", "tcp-srv", "tcp-", WS_CAUSE_BLOCKED, 'D', "fsync", NULL },
  /* Random reads of a file not in the page cache: the disk.  On this VM
   * a read also spends a third of its time on the CPU inside pread,
   * mostly in iowrite16 (the virtio notification, a trap to the host):
   * that is the disk's too. */
  { "cold-read.perf.txt.gz", "cold-read", "cold-", WS_CAUSE_BLOCKED, 'D', "pread", NULL },
  /* Backends queue on an advisory lock whose holder sleeps in pg_sleep. */
  { "pg-advisory.perf.txt.gz", "postgres", "postgres", WS_CAUSE_BLOCKED, 'S', "pg_sleep", NULL },
  /* Random first touches of a mapped file not in the page cache: major
   * page faults, the disk.  No system call on the stack; the CPU time
   * inside the fault (submitting the read, the virtio notification) is
   * the disk's too. */
  { "mmap-fault.perf.txt.gz", "mmap-fault", "mmf-", WS_CAUSE_BLOCKED, 'D', "touch_page", NULL },
  /* A main thread joins three workers a round; one of them, a different
   * one each round, has ten times the work: the straggler running. */
  { "pool-straggler.perf.txt.gz", "pool-main", "pool-", WS_CAUSE_RUNNING, 0, NULL, "crunch_share" },
  /* Three processes take one flock in turn and compute under it: the
   * holder, another process, running its locked update. */
  { "flock-hold.perf.txt.gz", "flock-hold", "flock-hold", WS_CAUSE_RUNNING, 0, "flock-hold", "update_under_lock" },
  /* A writer waits on a pthread rwlock for readers that scan under it. */
  { "rwlock-writer.perf.txt.gz", "rwlock-writer", "rw-", WS_CAUSE_RUNNING, 0, NULL, "scan_table" },
  /* An epoll server idles because its client computes between requests:
   * the client running, not the server's epoll_wait. */
  { "epoll-idle.perf.txt.gz", "ep-srv", "ep-", WS_CAUSE_RUNNING, 0, "ep-cli", "prepare_request" },
  /* Python's sqlite3 commits with synchronous=FULL: the disk. */
  { "py-sqlite.perf.txt.gz", "python3", "python3", WS_CAUSE_BLOCKED, 'D', "fdatasync", NULL },
  /* A real shell loop in wait4 for real gzip children: gzip running.
   * The shell waits for its children to end: the gzips are the program
   * picked, not the launcher. */
  { "sh-gzip.perf.txt.gz", "gzip", "gzip", WS_CAUSE_RUNNING, 0, "gzip", NULL },
  /* Two threads throttled by a cgroup CPU quota, on a loaded machine
   * whose test harness (bash) waits for its children: throttled. */
  { "cpu-quota.perf.txt.gz", "cpu-quota", "cq-", WS_CAUSE_READY, 0, WS_CAUSE_THROTTLED, NULL },
  /* A ui thread waits for a mutex whose holder, preempted inside its
   * critical section, waits for a CPU that three spinning hogs, a JVM and
   * other jobs hold (normal class): waiting for a CPU. */
  { "starved-lock.perf.txt.gz", "sl-ui", "sl-", WS_CAUSE_READY, 0, "", NULL },
  /* fsync-writer's commit log beside dd writing 1 MiB blocks with
   * O_DIRECT: the disk, with dd's requests ahead in the queue. */
  { "fsync-dd.perf.txt.gz", "fsync-writer", "fsw-", WS_CAUSE_BLOCKED, 'D', "fsync", NULL },
  /* A shell loop starts calc-client again and again; each run waits for
   * calc-server's 2 ms replies: the clients are picked (not the shell,
   * which waits for them to end), the server running is the cause. */
  { "sh-client.perf.txt.gz", "calc-client", "calc-client", WS_CAUSE_RUNNING, 0, "calc-server", "compute_reply" },
  /* A database beside a disk hog: pgbench clients insert and commit
   * (each commit's WAL flushed by fdatasync) while dd writes 1 MiB blocks
   * with O_DIRECT to the same disk (block requests recorded): the disk,
   * the WAL flush. */
  { "pg-dd.perf.txt.gz", "postgres", "postgres", WS_CAUSE_BLOCKED, 'D', "XLogFlush", NULL },
  /* chain3 beside two shell loops compiling a generated C file with
   * gcc -O2 (real cc1s, drivers waiting for them): the workload is
   * picked, not the compiler, and C running is the cause. */
  { "cc-chain3.perf.txt.gz", "ch-a", "ch-", WS_CAUSE_RUNNING, 0, NULL, "crunch" },
  /* A parent forks a child per item and waits for it to end; each child
   * computes ~4 ms (child_crunch).  Recorded while compilers kept both
   * CPUs busy: the few children held up longest waited for a CPU, but
   * the 529 children the parent waited for mostly ran, and that is the
   * answer. */
  { "waitpid-child.perf.txt.gz", "wp-child", "wp-child", WS_CAUSE_RUNNING, 0, "wp-child", "child_crunch" },
  /* Two processes hand records over a process-shared semaphore pair
   * (futexes in shared memory); the poster fdatasyncs each record first:
   * the disk, in the poster's main thread, whose frame-pointer stack is
   * only libc's (__libc_start_call_main → fdatasync). */
  { "sem-fsync.perf.txt.gz", "sem-wait", "sem-", WS_CAUSE_BLOCKED, 'D', "fdatasync", NULL },
};

/* Two threads compute in a cgroup whose CPU quota is a fifth of a CPU.
 * On the loaded recording machine the picker prefers other jobs (a known
 * miss); over the workload's own threads the top cause is the throttling:
 * switched out runnable for an idle CPU (flag to-idle), not waiting for a
 * CPU that others held. */
static void
test_cpu_quota_threads (void)
{
  g_autoptr(WsTrace) trace = load ("cpu-quota.perf.txt.gz");
  g_autoptr(GArray) targets = g_array_new (FALSE, FALSE, sizeof (WsAttributionTarget));
  g_autoptr(WsAttribution) attribution = NULL;
  g_autoptr(GError) error = NULL;
  const WsCause *top;

  if (trace == NULL)
    {
      g_test_skip ("WS_TEST_DATA not set");
      return;
    }
  for (guint t = 0; t < ws_trace_get_n_threads (trace); t++)
    {
      const WsThread *th = ws_trace_get_thread (trace, t);
      WsAttributionTarget target = { trace, { t, th->first_seen, th->last_seen }, WS_NONE };

      if (th->name != NULL && g_str_has_prefix (th->name, "cq-w"))
        g_array_append_val (targets, target);
    }
  g_assert_cmpuint (targets->len, ==, 2);
  attribution = ws_attribution_compute (targets, NULL, &error);
  g_assert_no_error (error);
  top = ws_attribution_get_cause (attribution, 0);
  g_test_message ("cpu-quota threads: %s (%.1f %%)", top->label, 100 * top->share);
  g_assert_cmpint (top->kind, ==, WS_CAUSE_READY);
  g_assert_cmpstr (top->signature, ==, WS_CAUSE_THROTTLED);
  g_assert_cmpfloat (top->share, >, 0.5);
}

/* What a recording was made for, from perf's "cmdline" header. */
static void
test_record_subject (void)
{
  g_autoptr(GArray) pids = NULL;
  gboolean system_wide = TRUE;

  /* Waitscope's own lines (ws_record_settings_format()) */
  g_assert_true (ws_thread_picker_record_subject ("/usr/bin/perf record -g -p 4242 -e sched:sched_switch -e sched:sched_waking "
                                                  "-o /tmp/x.data -- sleep 5", &pids, NULL));
  g_assert_nonnull (pids);
  g_assert_cmpuint (pids->len, ==, 1);
  g_assert_cmpint (g_array_index (pids, gint32, 0), ==, 4242);
  g_clear_pointer (&pids, g_array_unref);
  g_assert_true (ws_thread_picker_record_subject ("perf record -g -e sched:sched_switch -o out.data -- ./server --port 80", &pids, &system_wide));
  g_assert_false (system_wide);
  g_assert_null (pids);
  /* system-wide for a duration: no subject */
  g_assert_false (ws_thread_picker_record_subject ("perf record -g -a -e sched:sched_switch -o out.data -- sleep 1.5", &pids, &system_wide));
  g_assert_true (system_wide);
  g_assert_null (pids);
  /* perf's other spellings */
  g_assert_true (ws_thread_picker_record_subject ("perf record --pid=10,11 -g", &pids, NULL));
  g_assert_cmpuint (pids->len, ==, 2);
  g_assert_cmpint (g_array_index (pids, gint32, 1), ==, 11);
  g_clear_pointer (&pids, g_array_unref);
  g_assert_true (ws_thread_picker_record_subject ("perf record -e cycles -c 1000 make -j4", NULL, NULL));
  g_assert_false (ws_thread_picker_record_subject ("perf record -a -g", NULL, NULL));
  /* perf's commands that record every CPU without saying -a */
  g_assert_false (ws_thread_picker_record_subject ("/usr/bin/perf sched record -q -o sched.data -- sleep 1", &pids, &system_wide));
  g_assert_true (system_wide);
  g_assert_null (pids);
  g_assert_false (ws_thread_picker_record_subject ("perf kmem record sleep 2", NULL, NULL));
  system_wide = TRUE;
  g_assert_true (ws_thread_picker_record_subject ("perf sched record -p 77", &pids, &system_wide));
  g_assert_cmpint (g_array_index (pids, gint32, 0), ==, 77);
  g_clear_pointer (&pids, g_array_unref);
  g_assert_true (ws_thread_picker_record_subject ("perf sched record ./server", NULL, &system_wide));
  g_assert_true (system_wide);
  g_assert_true (ws_thread_picker_record_subject ("perf lock record ./server", NULL, &system_wide));
  g_assert_false (system_wide);
  g_assert_false (ws_thread_picker_record_subject (NULL, NULL, NULL));
  g_assert_false (ws_thread_picker_record_subject ("perf record -p 'unbalanced", NULL, NULL));
}

/* Asking for another program than the picker's (why --comm/--pid, the
 * Overview's switch to the runner-up): its threads are explained, and the
 * ranking's first becomes the runner-up. */
static void
test_choice (void)
{
  g_autoptr(WsTrace) trace = load ("sh-client.perf.txt.gz");
  g_autoptr(WsThreadPick) ranked = NULL, by_name = NULL, by_pid = NULL, none = NULL;
  WsPickChoice server = { "calc-server", 0 };
  WsPickChoice absent = { "no-such-program", 0 };
  WsPickChoice pid = { NULL, 0 };

  if (trace == NULL)
    {
      g_test_skip ("WS_TEST_DATA not set");
      return;
    }
  ranked = ws_thread_picker_pick_full (trace, NULL, 3, NULL);
  g_assert_cmpstr (ranked->program, ==, "calc-client");
  g_assert_cmpint (ranked->subject, ==, WS_PICK_RANKED);

  by_name = ws_thread_picker_pick_full (trace, NULL, 3, &server);
  g_assert_nonnull (by_name);
  g_assert_cmpstr (by_name->program, ==, "calc-server");
  g_assert_cmpint (by_name->subject, ==, WS_PICK_CHOSEN);
  g_assert_cmpstr (by_name->runner_up, ==, "calc-client");
  for (guint i = 0; i < by_name->threads->len; i++)
    g_assert_true (is_program (trace, g_array_index (by_name->threads, guint, i), "calc-server"));

  /* the shell loop, by its pid: that process alone, not its children */
  for (guint p = 0; p < ws_trace_get_n_processes (trace); p++)
    if (g_strcmp0 (ws_trace_get_process (trace, p)->name, "sh") == 0 &&
        ws_trace_get_process_parent (trace, p) > 0)
      pid.pid = ws_trace_get_process (trace, p)->pid;
  g_assert_cmpint (pid.pid, >, 0);
  by_pid = ws_thread_picker_pick_full (trace, NULL, 3, &pid);
  g_assert_nonnull (by_pid);
  g_assert_cmpstr (by_pid->program, ==, "sh");
  g_assert_cmpint (by_pid->pid, ==, pid.pid);

  none = ws_thread_picker_pick_full (trace, NULL, 3, &absent);
  g_assert_null (none);
}

/* Whether @thread issued a block request: its own `block_rq_issue`
 * markers, read apart from the block requests' pairing. */
static gboolean
issued_requests (WsTrace *trace,
                 guint    thread)
{
  const WsThread *t = ws_trace_get_thread (trace, thread);
  guint32 issue = ws_trace_lookup_string (trace, "block:block_rq_issue");

  for (guint i = 0; i < t->n_events; i++)
    {
      const WsEvent *e = ws_trace_get_event (trace, t->events[i]);
      if (e->kind == WS_EVENT_MARKER && ws_event_name (e) == issue)
        return TRUE;
    }
  return FALSE;
}

/* The disk's other users on a recording with block requests: the dd
 * started beside the workload first, named by its requests on the same
 * device (not by being in uninterruptible sleep: other sessions'
 * compilers were too), each one a thread that issued requests; the
 * critical path names them the same way. */
static void
check_device_queue (const char *file)
{
  g_autoptr(WsTrace) disk = load (file);
  g_autoptr(GPtrArray) traces = g_ptr_array_new ();
  g_autoptr(GArray) targets = NULL;
  g_autoptr(WsAttribution) attribution = NULL;
  g_autoptr(WsCriticalPath) path = NULL;
  g_autofree char *line = NULL;
  const WsCause *top;
  const WsBehindThread *first;
  guint n_disk = 0;

  g_assert_nonnull (disk);
  g_assert_cmpuint (ws_block_requests_get_n (ws_trace_get_block_requests (disk)), >, 100);
  {
    const WsBlockRequests *requests = ws_trace_get_block_requests (disk);
    guint by_wait, unfinished = ws_block_requests_get_n_unfinished (requests, &by_wait);

    g_test_message ("%s: %u block requests, %u without a completion (%u ended at their issuer's wait), "
                    "%u completions without an issue", file, ws_block_requests_get_n (requests), unfinished,
                    by_wait, ws_block_requests_get_n_orphans (requests));
  }
  g_ptr_array_add (traces, disk);
  targets = ws_attribution_targets_waiting_threads (traces, NULL, 3);
  attribution = ws_attribution_compute (targets, NULL, NULL);
  top = ws_attribution_get_cause (attribution, 0);
  g_assert_cmpint (top->state, ==, 'D');
  g_assert_cmpuint (top->behind->len, >, 0);
  first = &g_array_index (top->behind, WsBehindThread, 0);
  g_assert_cmpstr (ws_trace_get_program_name (disk, first->thread), ==, "dd");
  g_assert_cmpint (first->what, ==, WS_BEHIND_REQUESTS);
  g_assert_cmpuint (first->bytes, >=, 1024 * 1024);
  g_assert_cmpfloat ((double) first->time / top->time, >, 0.3);
  g_assert_cmpfloat ((double) first->time / top->time, <=, 1.0);
  for (guint i = 0; i < top->behind->len; i++)
    {
      const WsBehindThread *t = &g_array_index (top->behind, WsBehindThread, i);
      g_assert_cmpint (t->what, ==, WS_BEHIND_REQUESTS);
      g_assert_true (issued_requests (disk, t->thread));
      g_assert_cmpuint (ws_trace_get_thread (disk, t->thread)->process, !=,
                        ws_trace_get_thread (disk, g_array_index (top->threads, WsCauseThread, 0).thread)->process);
    }
  line = ws_cause_describe_behind (top, 3);
  g_test_message ("%s: %s", file, line);
  g_assert_nonnull (strstr (line, "requests in flight on the same device"));
  g_assert_nonnull (strstr (line, "dd "));

  path = ws_critical_path_build (disk, &g_array_index (targets, WsAttributionTarget, 0).symptom, NULL, NULL);
  for (guint i = 0; i < ws_critical_path_get_n_segments (path); i++)
    n_disk += ws_critical_path_segment_is_disk (path, i);
  g_assert_cmpuint (n_disk, >, 0);
  g_assert_cmpint (ws_critical_path_get_disk_time (path), >, 0);
  g_clear_pointer (&line, g_free);
  line = ws_critical_path_dup_behind (path);
  g_test_message ("%s, critical path: %s", file, line);
  g_assert_nonnull (line);
  g_assert_nonnull (strstr (line, "requests in flight on the same device"));
  g_assert_nonnull (strstr (line, "dd "));
}

/* The step behind the cause, against the recordings' own make-up: on
 * fsync-dd and pg-dd the disk's other user is the dd started beside the
 * workload; on starved-lock the three spinning hogs had the CPUs.  The
 * critical path calls the fsync time disk, not "readier unknown". */
static void
test_behind (void)
{
  g_autoptr(WsTrace) cpu = load ("starved-lock.perf.txt.gz");
  g_autoptr(GPtrArray) traces = g_ptr_array_new ();
  g_autoptr(GArray) targets = NULL;
  g_autoptr(WsAttribution) attribution = NULL;
  const WsCause *top;
  guint hogs = 0;

  if (cpu == NULL)
    {
      g_test_skip ("WS_TEST_DATA not set");
      return;
    }
  check_device_queue ("fsync-dd.perf.txt.gz");
  check_device_queue ("pg-dd.perf.txt.gz");

  g_assert_null (ws_trace_get_block_requests (cpu));   /* recorded without them */
  g_ptr_array_add (traces, cpu);
  targets = ws_attribution_targets_waiting_threads (traces, NULL, 3);
  attribution = ws_attribution_compute (targets, NULL, NULL);
  top = ws_attribution_get_cause (attribution, 0);
  g_assert_cmpint (top->kind, ==, WS_CAUSE_READY);
  for (guint i = 0; i < top->behind->len; i++)
    {
      const WsBehindThread *t = &g_array_index (top->behind, WsBehindThread, i);
      g_assert_cmpint (t->what, ==, WS_BEHIND_CPU);
      hogs += strcmp (ws_trace_get_program_name (cpu, t->thread), "hog") == 0;
    }
  g_assert_cmpuint (hogs, ==, 3);
}

/* Without block requests (py-sqlite was recorded without them) the disk's
 * other users are still the other processes in uninterruptible sleep. */
static void
test_behind_without_requests (void)
{
  g_autoptr(WsTrace) trace = load ("py-sqlite.perf.txt.gz");
  g_autoptr(GPtrArray) traces = g_ptr_array_new ();
  g_autoptr(GArray) targets = NULL;
  g_autoptr(WsAttribution) attribution = NULL;
  g_autofree char *line = NULL;
  const WsCause *top;

  if (trace == NULL)
    {
      g_test_skip ("WS_TEST_DATA not set");
      return;
    }
  g_assert_null (ws_trace_get_block_requests (trace));
  g_ptr_array_add (traces, trace);
  targets = ws_attribution_targets_waiting_threads (traces, NULL, 3);
  attribution = ws_attribution_compute (targets, NULL, NULL);
  top = ws_attribution_get_cause (attribution, 0);
  g_assert_cmpint (top->state, ==, 'D');
  for (guint i = 0; i < top->behind->len; i++)
    g_assert_cmpint (g_array_index (top->behind, WsBehindThread, i).what, ==, WS_BEHIND_SLEEP);
  line = ws_cause_describe_behind (top, 3);
  g_test_message ("py-sqlite: %s", line ? line : "(nothing behind)");
  if (line != NULL)
    g_assert_nonnull (strstr (line, "uninterruptible sleep"));
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *name = g_strdup_printf ("/why-causes/%.*s", (int) strcspn (cases[i].file, "."), cases[i].file);
      g_test_add_data_func (name, &cases[i], check);
    }
  g_test_add_func ("/why-causes/cpu-quota-threads", test_cpu_quota_threads);
  g_test_add_func ("/why-causes/record-subject", test_record_subject);
  g_test_add_func ("/why-causes/choice", test_choice);
  g_test_add_func ("/why-causes/behind", test_behind);
  g_test_add_func ("/why-causes/behind-without-requests", test_behind_without_requests);
  return g_test_run ();
}
